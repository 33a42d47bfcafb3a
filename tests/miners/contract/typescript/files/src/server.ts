export class Server {
  private readonly keepAliveMs: number = 5000;
  public maxConnections = 100;
  static DEFAULT_HOST = 'localhost';

  constructor(private port: number = 3000, host: string = 'localhost', logger: Logger | null = null) {}

  listen(backlog: number = 511): void {}
}

export function createServer(port: number = 8080, { tls = false }: Options = {}): Server {
  return new Server(port);
}

export class CacheConfig {
  constructor(ttlSeconds: number | null = null, maxEntries = 1000) {}
}
