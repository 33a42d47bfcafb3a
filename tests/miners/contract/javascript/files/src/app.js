const express = require('express');
const usersRouter = require('./routes/users');

const app = express();
const MAX_BODY = 64 * 1024;
const PORT = process.env.PORT || 3000;
const corsOptions = { origin: 'https://example.org', maxAge: 600 };

app.set('view engine', 'pug');
app.use('/api/users', usersRouter);

/** The address the server binds to when none is given. */
function defaultHost() {
  return '0.0.0.0';
}

app.get('/health', (req, res) => res.send('ok'));

module.exports = app;

const SESSION_STORE = null;
const serverSettings = { db: { host: 'localhost', pool: { max: 10 } } };

function listen() {
  const backlog = 511;
  app.listen(PORT, { backlog: 511, timeout: 5000 });
}
