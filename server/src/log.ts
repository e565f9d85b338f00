// Structured JSON lines on stdout: one object per event, so a log shipper needs no parser.
type Fields = Record<string, unknown>;
type Level = 'info' | 'warn' | 'error';

const RANK: Record<Level, number> = { info: 0, warn: 1, error: 2 };
// LOG_LEVEL=warn keeps request lines out of test output; production logs everything.
const threshold = RANK[(process.env.LOG_LEVEL as Level | undefined) ?? 'info'] ?? 0;

function write(level: Level, msg: string, fields?: Fields): void {
  if (RANK[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const log = {
  info: (msg: string, fields?: Fields) => write('info', msg, fields),
  warn: (msg: string, fields?: Fields) => write('warn', msg, fields),
  error: (msg: string, fields?: Fields) => write('error', msg, fields),
};
