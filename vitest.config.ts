import { defineConfig } from 'vitest/config';

// The database tests that touch text, provisioning and the triggers, run again on WIN1252 and
// UTF8 ERP databases (the other project runs every database test on LATIN1): the text Campo
// writes into the ERP (toErpText, app.texto_erp, both triggers), Campo's own lossless text,
// every text input of every route, client and product search (folded in SQL per encoding),
// provisioning twice (and the odoo profile's, against the reference), and `campo provision
// --check`. docs/erp-contract.md, "Encodings".
const ENCODING_MATRIX = [
  'test/latin1.pg.test.ts',
  'test/text-inputs.pg.test.ts',
  'server/src/provisioning/provision.pg.test.ts',
  'server/src/provisioning/check.pg.test.ts',
  'server/src/provisioning/odoo.pg.test.ts',
  'server/src/clients/register.pg.test.ts',
  'server/src/clients/clients.pg.test.ts',
  'server/src/catalog/catalog.pg.test.ts',
  'server/src/orders/orders.pg.test.ts',
  'server/src/tickets/tickets.pg.test.ts',
  'server/src/funnel/funnel.pg.test.ts',
];

// The spec-level database tests run again on the odoo ERP profile (sql/erp-profiles/odoo), the
// Odoo-shaped second reference ERP: orders end to end into sale_order through its trigger and
// approvals (orders, order-push), the credit limit against the ERP's receivables (credit), the
// ends the ERP gives an approved order (erp-ends), new
// clients into res_partner (register), dashboards against figures computed from Odoo's own
// tables, replication to devices (pull, push), and the tickets, funnel and flex documents that
// read ERP orders and prices. docs/erp-profile-odoo.md.
const ODOO_PROFILE = [
  'server/src/orders/orders.pg.test.ts',
  'server/src/orders/order-push.pg.test.ts',
  'server/src/orders/credit.pg.test.ts',
  'server/src/orders/erp-ends.pg.test.ts',
  'server/src/clients/register.pg.test.ts',
  'server/src/dashboards/dashboards.pg.test.ts',
  'test/replication/pull.pg.test.ts',
  'test/replication/push.pg.test.ts',
  'server/src/tickets/tickets.pg.test.ts',
  'server/src/funnel/funnel.pg.test.ts',
  'server/src/flex/documents.pg.test.ts',
  'server/src/orders/open-totals.pg.test.ts',
  'server/src/provisioning/fiscal.pg.test.ts',
];

const pgProject = (name: string, include: string[], env: Record<string, string> = {}) => ({
  test: {
    name,
    env: { LOG_LEVEL: 'warn', ...env },
    include,
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

// Pure unit tests, and database tests (*.pg.test.ts) that share one PostgreSQL started by the
// global setup per project, each file in a database of its own.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          env: { LOG_LEVEL: 'warn' },
          include: ['{server,shared,client}/src/**/*.test.ts'],
          exclude: ['**/*.pg.test.ts', '**/node_modules/**'],
        },
      },
      pgProject('pg', ['{server,shared,client}/src/**/*.pg.test.ts', 'test/**/*.pg.test.ts']),
      pgProject('pg-win1252', ENCODING_MATRIX, { CAMPO_TEST_ENCODING: 'WIN1252' }),
      pgProject('pg-utf8', ENCODING_MATRIX, { CAMPO_TEST_ENCODING: 'UTF8' }),
      pgProject('pg-odoo', ODOO_PROFILE, { CAMPO_TEST_ERP_PROFILE: 'odoo' }),
    ],
  },
});
