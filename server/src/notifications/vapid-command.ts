// `campo vapid generate`: a new VAPID key pair as environment lines, so ops can append it to
// the server's environment file. The private key is printed once and stored nowhere else.
import type { Command } from 'commander';
import { generateVapidKeys, vapidSubjectProblem } from './vapid.ts';

export function registerVapidCommand(program: Command): void {
  const vapid = program.command('vapid').description('Web Push (VAPID) keys');
  vapid
    .command('generate')
    .description('Print a new VAPID key pair as VAPID_PUBLIC_KEY=... and VAPID_PRIVATE_KEY=... lines')
    .option('--subject <contact>', 'also print VAPID_SUBJECT (mailto:someone@company.com.br or an https:// URL)')
    .addHelpText(
      'after',
      [
        '',
        'Example: pnpm campo vapid generate --subject mailto:ti@distribuidora.com.br >> .env',
        '',
        'Keep the private key secret. Changing the pair later makes every device subscribed with the',
        'old public key stop receiving notifications until the app subscribes it again.',
      ].join('\n'),
    )
    .action((opts: { subject?: string }) => {
      if (opts.subject !== undefined) {
        const problem = vapidSubjectProblem(opts.subject);
        if (problem) {
          process.stderr.write(`campo: ${problem}\n`);
          process.exitCode = 3;
          return;
        }
      }
      const keys = generateVapidKeys();
      const lines = [`VAPID_PUBLIC_KEY=${keys.publicKey}`, `VAPID_PRIVATE_KEY=${keys.privateKey}`];
      // Without --subject the line stays a comment: the server refuses to start with two of
      // the three variables, so a placeholder contact can never go out to the push services.
      lines.push(
        opts.subject !== undefined
          ? `VAPID_SUBJECT=${opts.subject}`
          : '# VAPID_SUBJECT=mailto:ti@sua-empresa.com.br  (required: a contact the push services can reach)',
      );
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
