// Preloaded with --require (which, unlike --import, runs in every worker thread too): records
// each thread that loads it, and every outgoing connection or DNS look-up any of them tries,
// into the file named by KB_SOCKET_LOG. The connection is refused, so nothing leaves.
const { appendFileSync } = require('node:fs');
const dns = require('node:dns');
const net = require('node:net');
const { isMainThread, threadId } = require('node:worker_threads');

const file = process.env.KB_SOCKET_LOG;
if (file) {
  const thread = isMainThread ? 'main' : `worker ${threadId}`;
  appendFileSync(file, `${thread} started\n`);
  net.Socket.prototype.connect = function (...args) {
    appendFileSync(file, `${thread} connect ${JSON.stringify(args[0])}\n`);
    this.destroy(new Error('no sockets in this test'));
    return this;
  };
  for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6']) {
    const original = dns[name];
    dns[name] = function (host, ...rest) {
      appendFileSync(file, `${thread} dns ${name} ${String(host)}\n`);
      return original.call(this, host, ...rest);
    };
  }
}
