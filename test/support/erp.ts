// A provisioned reference ERP (tiny) in a test database, and the people in it, for tests of
// the API that need real clients, representatives and products.
import type pg from 'pg';
import { createErpFixture } from '../../server/src/erp-fixture/generate.ts';
import { grantServerRole } from '../../server/src/provisioning/grant.ts';
import { provision } from '../../server/src/provisioning/provision.ts';
import { SERVER_ROLE } from './pg.ts';

export interface ErpPeople {
  reps: { idEmpresa: number; codVendedor: number; codSupervisor: number }[];
  supervisors: { idEmpresa: number; codSupervisor: number }[];
  tenants: number[];
}

export async function provisionedErp(pool: pg.Pool): Promise<ErpPeople> {
  await createErpFixture(pool, { scale: 'tiny', asOf: new Date() });
  await provision(pool, {});
  await grantServerRole(pool, SERVER_ROLE);
  const reps = await pool.query<{ idEmpresa: number; codVendedor: number; codSupervisor: number }>(
    `select id_empresa as "idEmpresa", cod_vendedor as "codVendedor", cod_supervisor as "codSupervisor"
       from app.vw_vendedores order by id_empresa, cod_supervisor, cod_vendedor`,
  );
  const supervisors = await pool.query<{ idEmpresa: number; codSupervisor: number }>(
    `select id_empresa as "idEmpresa", cod_supervisor as "codSupervisor"
       from app.vw_supervisores order by id_empresa, cod_supervisor`,
  );
  return {
    reps: reps.rows,
    supervisors: supervisors.rows,
    tenants: [...new Set(reps.rows.map((r) => r.idEmpresa))],
  };
}
