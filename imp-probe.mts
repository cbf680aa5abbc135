const base = process.memoryUsage().rss;
const mods = process.argv.slice(2);
for (const m of mods) {
  const before = process.memoryUsage();
  await import(m);
  const after = process.memoryUsage();
  console.log(m, 'rss +', ((after.rss - before.rss) / 1048576).toFixed(1), 'heap +', ((after.heapUsed - before.heapUsed) / 1048576).toFixed(1));
}
console.log('base', (base / 1048576).toFixed(0), 'total', (process.memoryUsage().rss / 1048576).toFixed(0));
