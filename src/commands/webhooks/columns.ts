import type { Webhook } from '../../api/types.js';
import type { Column, Field, Output } from '../../io/output.js';
import type { IO } from '../../io/streams.js';

export function webhookColumns(io: IO): Column<Webhook>[] {
  return [
    { header: 'ID', value: (w) => w.id, style: (s) => io.color.dim(s) },
    { header: 'URL', value: (w) => w.url, flex: true },
    { header: 'EVENTS', value: (w) => (w.events ?? []).join(',') },
    {
      header: 'ACTIVE',
      value: (w) => (w.isActive ? 'yes' : 'no'),
      style: (s) => (s === 'yes' ? io.color.green(s) : io.color.yellow(s)),
    },
    { header: 'CREATED', value: (w) => w.createdAt, time: true },
  ];
}

export function webhookFields(output: Output, w: Webhook): Field[] {
  return [
    ['ID', w.id],
    ['URL', w.url],
    ['Events', (w.events ?? []).join(', ')],
    ['Active', w.isActive ? 'yes' : 'no'],
    ['Created', output.time(w.createdAt)],
  ];
}
