// The `campo` command: everything ops does with the service goes through here.
import { Command } from 'commander';
import { ConfigError } from '../config.ts';
import { registerDemoCommand } from '../demo/command.ts';
import { registerErpFixtureCommand } from '../erp-fixture/command.ts';
import { registerVapidCommand } from '../notifications/vapid-command.ts';
import { registerProvisionCommand } from '../provisioning/command.ts';
import { registerUserCommand } from '../users/command.ts';
import { SERVER_VERSION } from '../version.ts';
import { serveCommand } from './serve.ts';

const program = new Command('campo')
  .description('Campo field-sales service: serve the API and provision the ERP database')
  .version(SERVER_VERSION)
  .showHelpAfterError()
  .addHelpText(
    'after',
    '\nEnvironment:\n  DATABASE_URL  postgres:// URL of the ERP database (required by every command that touches it)',
  );

program
  .command('serve')
  .description('Serve the REST and replication API (default port 8080)')
  .option('-p, --port <port>', 'TCP port; overrides PORT')
  .addHelpText('after', '\nEnvironment: DATABASE_URL (required), PORT (default 8080), HOST (default 0.0.0.0)')
  .action(serveCommand);

registerProvisionCommand(program);
registerErpFixtureCommand(program);
registerUserCommand(program);
registerDemoCommand(program);
registerVapidCommand(program);

try {
  await program.parseAsync();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`campo: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
