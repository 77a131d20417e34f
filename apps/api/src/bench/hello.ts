/** The ceiling of the HTTP benchmark: a bare Fastify server answering a small JSON, nothing else. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address && typeof address === 'object') process.stdout.write(`запущена: http://127.0.0.1:${address.port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
