#!/usr/bin/env node
// Writes the demo's pictures (assets/demo/), once: their bytes are committed, so that kb serve
// --demo never draws them. Run again only to change them: node scripts/demo-assets.js
import { writeFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import { makePdf, scannedPage } from '../bench/pdf.js';

const out = (name) => new URL(`../assets/demo/${name}`, import.meta.url);

/** architecture-diagram.png: Orbitdesk's services as boxes and arrows, with a caption. */
function diagram() {
  const canvas = createCanvas(900, 520);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, 900, 520);
  g.fillStyle = '#111';
  g.font = 'bold 28px sans-serif';
  g.fillText('Orbitdesk architecture', 30, 50);
  const box = (x, y, w, label) => {
    g.fillStyle = '#dbeafe';
    g.fillRect(x, y, w, 60);
    g.fillStyle = '#111';
    g.font = '22px sans-serif';
    g.fillText(label, x + 16, y + 38);
  };
  const arrow = (x1, y1, x2, y2) => {
    g.strokeStyle = '#555';
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(x1, y1);
    g.lineTo(x2, y2);
    g.stroke();
    const a = Math.atan2(y2 - y1, x2 - x1);
    g.beginPath();
    g.moveTo(x2, y2);
    g.lineTo(x2 - 12 * Math.cos(a - 0.4), y2 - 12 * Math.sin(a - 0.4));
    g.lineTo(x2 - 12 * Math.cos(a + 0.4), y2 - 12 * Math.sin(a + 0.4));
    g.fill();
  };
  box(30, 100, 240, 'Web and mobile apps');
  box(340, 100, 200, 'API gateway');
  box(630, 100, 240, 'Ticket service');
  box(340, 250, 200, 'Event queue');
  box(630, 250, 240, 'Search indexer');
  box(630, 380, 240, 'PostgreSQL');
  arrow(280, 130, 334, 130);
  arrow(548, 130, 624, 130);
  arrow(860, 168, 860, 374);
  arrow(624, 168, 548, 244);
  arrow(548, 280, 624, 280);
  g.fillStyle = '#111';
  g.font = '20px sans-serif';
  g.fillText('Every request enters through the API gateway, which checks the session token.', 30, 470);
  g.fillText('The search indexer reads ticket events from the event queue within two seconds.', 30, 500);
  return canvas.toBuffer('image/png');
}

writeFileSync(out('architecture-diagram.png'), diagram());
writeFileSync(
  out('signed-agreement-scanned.pdf'),
  makePdf([
    await scannedPage(
      [
        'Orbitdesk Master Services Agreement (signed copy)',
        '',
        'Either party may end this agreement with 60 days written notice.',
        'Invoices are payable within 30 days of the invoice date.',
        'Each party keeps the other party\u2019s confidential information secret',
        'for five years after the agreement ends.',
        '',
        'Signed for the provider: M. Okafor        Signed for the customer: J. Rivera',
      ],
      undefined,
      { quality: 55 },
    ),
  ]),
);
console.log('wrote assets/demo/architecture-diagram.png and signed-agreement-scanned.pdf');
