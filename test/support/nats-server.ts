export * from '../../deploy/local/nats-server.ts';
