function start() {
  const host = process.env.HOST;
  return host;
}
