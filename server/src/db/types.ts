// Row types of the app schema, as Kysely sees them. Each domain adds its tables here when it
// starts querying them; the SQL in sql/migrations/ is the source of truth.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsuariosTable {
  id: Generated<number>;
  id_empresa: number;
  login: string;
  nome: string;
  papel: 'representative' | 'supervisor' | 'manager' | 'admin';
  cod_vendedor: number | null;
  cod_supervisor: number | null;
  senha_hash: string;
  ativo: Generated<boolean>;
  versao_token: Generated<number>;
  criado_em: Generated<Timestamp>;
  atualizado_em: Generated<Timestamp>;
}

export interface DB {
  'app.usuarios': UsuariosTable;
}
