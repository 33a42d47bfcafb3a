import { expressjwt as jwt } from 'express-jwt';
import session from 'express-session';
import * as express from 'express';

const getTokenFromHeaders = (req: express.Request): string | null =>
  req.headers.authorization ? req.headers.authorization.split(' ')[1] : null;

const auth = {
  required: jwt({
    secret: process.env.JWT_SECRET || 'superSecret',
    getToken: getTokenFromHeaders,
    algorithms: ['HS256'],
  }),
  optional: jwt({
    credentialsRequired: false,
    algorithms: ['HS256'],
  }),
};

export const limiter = rateLimit({ windowMs: 15 * 60 * 1000, max: 100, handler: onLimit });

const app = express();
app.use(session({ secret: 'keyboard cat', resave: false, cookie: { maxAge: 60000 } }));

const messages = { notFound: 'Not found' };

export default auth;
