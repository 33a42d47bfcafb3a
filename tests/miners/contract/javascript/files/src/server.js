'use strict';

class Server {
  timeout = 5000;
  static maxConnections = 100;
  #secretCounter = 7;

  constructor(port = 3000, host = 'localhost', options = {}) {
    this.port = port;
    this.host = host;
  }

  listen(backlog = 511, _internal = 2) {
    return backlog;
  }
}

function createServer(port = 8080, { tls = false, retries = 3 } = {}, callback = null) {
  return new Server(port);
}

const connect = (attempts = 5) => attempts;

module.exports = { Server, createServer, connect };
