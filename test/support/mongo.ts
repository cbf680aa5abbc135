/**
 * A MongoDB for the MongoDB suites: MONGODB_URI when set, else a throwaway container through
 * testcontainers when a container engine is available. Otherwise the reason it is not available,
 * which the suite prints in the name of its skipped test.
 */
export interface TestMongo {
  uri: string;
  stop(): Promise<void>;
}

export async function startMongo(): Promise<TestMongo | string> {
  // Tests may read the environment directly; the services never do outside their config.ts.
  const given = process.env.MONGODB_URI;
  if (given) return { uri: given, stop: async () => {} };
  try {
    const { MongoDBContainer } = await import('@testcontainers/mongodb');
    const container = await new MongoDBContainer('mongo:8').start();
    return {
      uri: `${container.getConnectionString()}?directConnection=true`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (err) {
    return `no MONGODB_URI and no container runtime for testcontainers (${(err as Error).message.split('\n')[0]})`;
  }
}
