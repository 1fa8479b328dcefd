// cli-table3 is bundled into the CLI (rolldown.config.js) and loaded only for tables on a
// terminal; through this module, so that the bundle compiles it with the other chunks.
export { default as Table } from 'cli-table3';
