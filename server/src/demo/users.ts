import type { UserCreate } from '@campo/shared';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { addUser } from '../users/service.ts';

/** Demo only: every demo login shares this password, printed by `pnpm demo`. */
export const DEMO_PASSWORD = 'campo1234';

export interface DemoLogin {
  login: string;
  role: string;
  description: string;
}

/** One login per role in tenant 1, plus a representative of tenant 2 to show isolation. */
export async function createDemoUsers(db: Db): Promise<DemoLogin[]> {
  const reps = await sql<{ id_empresa: number; cod_vendedor: number; cod_supervisor: number; nome: string }>`
    select distinct on (id_empresa) id_empresa, cod_vendedor, cod_supervisor, nome
      from app.vw_vendedores order by id_empresa, cod_supervisor, cod_vendedor`.execute(db);
  const logins: DemoLogin[] = [];
  const add = async (
    user: Omit<UserCreate, 'password' | 'codVendedor' | 'codSupervisor'> & Partial<UserCreate>,
    description: string,
  ) => {
    await addUser(db, { ...user, password: DEMO_PASSWORD });
    logins.push({ login: user.login, role: user.role, description });
  };
  for (const rep of reps.rows) {
    const t = rep.id_empresa;
    await add(
      {
        login: `rep${t}@demo.campo`,
        name: rep.nome,
        role: 'representative',
        idEmpresa: t,
        codVendedor: rep.cod_vendedor,
      },
      `representante ${rep.cod_vendedor} da empresa ${t}`,
    );
    if (t !== reps.rows[0]?.id_empresa) continue;
    await add(
      {
        login: `sup${t}@demo.campo`,
        name: `Supervisor ${rep.cod_supervisor}`,
        role: 'supervisor',
        idEmpresa: t,
        codSupervisor: rep.cod_supervisor,
      },
      `supervisor ${rep.cod_supervisor} (equipe do representante acima)`,
    );
    await add(
      { login: `gerente${t}@demo.campo`, name: 'Gerente Comercial', role: 'manager', idEmpresa: t },
      `gerente da empresa ${t}`,
    );
    await add(
      { login: `admin${t}@demo.campo`, name: 'Administrador', role: 'admin', idEmpresa: t },
      `administrador da empresa ${t}`,
    );
  }
  return logins;
}
