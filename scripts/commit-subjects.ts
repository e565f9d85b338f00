// Commit subjects say what and why in at most 72 characters, so `git log --oneline` reads as a
// list of changes (README, "Contributing"). Checked from the first commit after the rule came
// in; a shallow clone without that commit is checked from its own first commit.
import { execFileSync } from 'node:child_process';

const RULE_SINCE = '93a0d64';
const MAX = 72;

const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();

function range(): string {
  try {
    git('cat-file', '-e', `${RULE_SINCE}^{commit}`);
    return `${RULE_SINCE}..HEAD`;
  } catch {
    return 'HEAD';
  }
}

let log: string;
try {
  log = git('log', '--no-merges', '--format=%h %s', range());
} catch {
  console.log('commit subjects: not a git checkout, not checked');
  process.exit(0);
}
const long = log
  .split('\n')
  .filter(Boolean)
  .filter((line) => line.length - line.indexOf(' ') - 1 > MAX);
if (long.length > 0) {
  console.error(`commit subjects over ${MAX} characters (put details in the body):\n${long.join('\n')}`);
  process.exit(1);
}
