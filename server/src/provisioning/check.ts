// `campo provision --check`: does a mapped ERP database fit Campo, without changing it? An
// integrator who wrote a profile's views and triggers for an ERP nobody here has seen learns
// here, one line per problem, what the server would trip over later: a column the views
// lack or type wrongly, keys that are not unique per tenant, rows whose tenant is no head
// office, triggers that do not write what an approval needs.
//
// Nothing escapes: the profile's SQL (the pending migrations, functions, views, triggers;
// never the ERP indexes, whose build would lock ERP tables) runs in one transaction that is
// always rolled back, and so do the data sampling and the rehearsal of the triggers. The one
// thing a rollback does not undo is a sequence's nextval. So before the rehearsal every
// sequence it can advance (the defaults of the ERP tables the triggers write and of
// Campo's tables, and those the SQL names in nextval) is rewritten inside the transaction
// (ALTER SEQUENCE ... RESTART gives it new storage, transactionally) and set back to its
// value: the rehearsal draws from that copy, the rollback throws the copy away, and the
// ERP's own inserts wait on the sequence meanwhile instead of drawing numbers twice. That
// needs the sequence's owner; a role that is not gets a problem line and no rehearsal. A
// sequence reached only through dynamic SQL cannot be held: any sequence that moved while
// the check ran is reported as a warning. The ERP's fiscal data, optional, is read whole, and
// what an order must not apply (a negative rate, an MVA over 1,000 %, two rules for the same
// NCM, states and regime) is reported as warnings: provisioning never fails on it.
import { isErpEncoding } from '@campo/shared';
import type pg from 'pg';
import { checkErpContract } from './erp-check.ts';
import { ProvisionError } from './errors.ts';
import { MIN_SERVER_VERSION_NUM, recordedProfile, serverFacts, sqlSources } from './provision.ts';
import { DEFAULT_PROFILE, erpContract, type SqlSources } from './sources.ts';
import {
  type ContractType,
  contractOf,
  isPaddedChar,
  typeFits,
  VIEW_CONTRACT,
  type ViewContract,
} from './view-contract.ts';

export type CheckStep = 'database' | 'erp' | 'views' | 'data' | 'triggers';

export interface CheckFinding {
  step: CheckStep;
  message: string;
}

export interface CheckOptions {
  /** SQL to check instead of the one provisioning would apply (tests). */
  sources?: SqlSources;
  /**
   * The ERP profile to check (`--profile`); without it, the one an earlier `campo provision`
   * recorded, else the default: what a plain `campo provision` would install.
   */
  profile?: string;
  /** Progress lines, one per step. */
  log?: (line: string) => void;
  /** Rows sampled per view (default 1000). */
  sampleRows?: number;
  /** Bound of each statement, in milliseconds (default 30 s). */
  statementTimeoutMs?: number;
}

export interface CheckReport {
  database: string;
  /** The ERP profile whose SQL was checked (empty when the check stopped before choosing one). */
  profile: string;
  /** No problem: provisioning would give a working Campo. */
  fit: boolean;
  problems: CheckFinding[];
  warnings: CheckFinding[];
  sampleRows: number;
  statementTimeoutMs: number;
  durationMs: number;
  /** The ERP ids the rehearsal got, inside the transaction that was rolled back. */
  rehearsal?: { idPedidoErp: number; idClienteErp: number };
}

/** How long the check waits for a lock (an ERP transaction holding a sequence, the server a view). */
const LOCK_TIMEOUT_MS = 5000;

const PG_TYPES: Record<ContractType, string> = {
  integer: 'bigint',
  numeric: 'numeric',
  text: 'text',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
};

type Row = Record<string, unknown>;

class Findings {
  rehearsal: { idPedidoErp?: number; idClienteErp?: number } = {};
  readonly problems: CheckFinding[] = [];
  readonly warnings: CheckFinding[] = [];
  problem(step: CheckStep, message: string): void {
    this.problems.push({ step, message });
  }
  warning(step: CheckStep, message: string): void {
    this.warnings.push({ step, message });
  }
}

function messageOf(err: unknown): string {
  const e = err as { message?: string; code?: string; detail?: string };
  if (e.code === '57014') return 'did not finish within the statement timeout';
  if (e.code === '55P03') return `a lock was not granted within ${LOCK_TIMEOUT_MS / 1000} s`;
  return `${e.message ?? String(err)}${e.detail ? ` (${e.detail})` : ''}`;
}

/** Runs `fn` under a savepoint, so that a failing statement costs one finding, not the transaction. */
async function guarded<T>(
  client: pg.ClientBase,
  fn: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  await client.query('savepoint campo_check');
  try {
    const value = await fn();
    await client.query('release savepoint campo_check');
    return { ok: true, value };
  } catch (error) {
    await client.query('rollback to savepoint campo_check');
    return { ok: false, error };
  }
}

const tuple = (row: Row, cols: string[]) => `(${cols.map((k) => String(row[k] ?? 'null')).join(', ')})`;
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Puts the profile's SQL in place, inside the open transaction. Returns false when it cannot. */
async function install(client: pg.ClientBase, sources: SqlSources, f: Findings): Promise<boolean> {
  const { rows } = await client.query<{ app: boolean; bookkept: boolean }>(
    `select to_regnamespace('app') is not null as app, to_regclass('app.schema_migrations') is not null as bookkept`,
  );
  const state = rows[0] ?? { app: false, bookkept: false };
  const applied = new Set<string>();
  if (state.bookkept) {
    const done = await client.query<{ version: string }>('select version from app.schema_migrations');
    for (const r of done.rows) applied.add(r.version);
  } else if (!state.app) {
    await client.query('create schema app');
  }
  for (const m of sources.migrations.filter((x) => !applied.has(x.version))) {
    const run = await guarded(client, () => client.query(m.sql));
    if (!run.ok) {
      f.problem('views', `migration ${m.name} failed: ${messageOf(run.error)}`);
      return false;
    }
  }
  const items = sources.repeatables.filter((r) => r.kind !== 'index');
  const views = items.filter((r) => r.kind === 'view').map((r) => `app.${r.name}`);
  // Cascade: whatever depends on Campo's views goes too, and comes back with the rollback.
  if (views.length > 0) await client.query(`drop view if exists ${views.join(', ')} cascade`);
  for (const item of items) {
    const run = await guarded(client, () => client.query(item.sql));
    if (!run.ok) f.problem('views', `sql/${item.file} failed: ${messageOf(run.error)}`);
  }
  return true;
}

/** The profile's views and functions against the contract: names and types of the columns. */
async function compareViews(client: pg.ClientBase, f: Findings): Promise<Set<string>> {
  const usable = new Set<string>();
  const { rows } = await client.query<{ view: string; col: string; type: string }>(
    `select c.relname as view, a.attname as col, format_type(a.atttypid, a.atttypmod) as type
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'app' and c.relkind in ('v', 'm')
      order by c.relname, a.attnum`,
  );
  const actual = new Map<string, Map<string, string>>();
  for (const r of rows) {
    const cols = actual.get(r.view) ?? new Map<string, string>();
    cols.set(r.col, r.type);
    actual.set(r.view, cols);
  }
  for (const fn of VIEW_CONTRACT.filter((v) => v.kind === 'function')) {
    const probe = await guarded(client, () => client.query(fn.probe ?? `select * from app.${fn.name}() limit 0`));
    if (!probe.ok) {
      f.problem('views', `function app.${fn.name} cannot be called: ${messageOf(probe.error)}`);
      continue;
    }
    const types = await client.query<{ oid: number; type: string }>(
      'select t.oid::int as oid, format_type(t.oid, null) as type from unnest($1::oid[]) as t(oid)',
      [probe.value.fields.map((x) => x.dataTypeID)],
    );
    const byOid = new Map(types.rows.map((t) => [t.oid, t.type]));
    actual.set(fn.name, new Map(probe.value.fields.map((x) => [x.name, byOid.get(x.dataTypeID) ?? 'unknown'])));
  }
  for (const v of VIEW_CONTRACT) {
    const what = v.kind === 'view' ? `view app.${v.name}` : `function app.${v.name}`;
    const cols = actual.get(v.name);
    if (!cols) {
      if (v.kind === 'view') f.problem('views', `${what} is missing`);
      continue;
    }
    const extra = [...cols.keys()].filter((name) => !v.columns.some((col) => col.name === name));
    let fits = true;
    for (const col of v.columns) {
      const type = cols.get(col.name);
      if (type === undefined) {
        fits = false;
        const others = extra.length > 0 ? `; it has ${extra.join(', ')}, which the contract does not name` : '';
        f.problem('views', `${v.name}: column ${col.name} (${col.type}) is missing${others}`);
      } else if (isPaddedChar(type)) {
        fits = false;
        f.problem(
          'views',
          `${v.name}.${col.name} is ${type}: its blank padding would reach the API; trim it in the view (nullif(btrim(x), ''))`,
        );
      } else if (!typeFits(col.type, type)) {
        fits = false;
        f.problem(
          'views',
          `${v.name}.${col.name} is ${type}, expected ${col.type} (the reference profile has ${col.reference})`,
        );
      }
    }
    if (fits) usable.add(v.name);
  }
  return usable;
}

interface Sample {
  view: ViewContract;
  rows: Row[];
}

/**
 * Looks `rows` (their `cols`) up in `view` by `as`, only those, through the view's key:
 * returns the distinct tuples `view` lacks, or those it holds more than once.
 */
async function lookup(
  client: pg.ClientBase,
  mode: 'missing' | 'duplicated',
  rows: Row[],
  cols: string[],
  target: ViewContract,
  as: string[],
): Promise<Row[]> {
  const types = as.map((name) => target.columns.find((col) => col.name === name)?.type ?? 'text');
  const keys = new Map<string, Row>();
  for (const r of rows) {
    if (cols.some((k) => r[k] === null || r[k] === undefined) && mode === 'missing') continue;
    const key = Object.fromEntries(as.map((a, i) => [a, r[cols[i] ?? a] ?? null]));
    keys.set(JSON.stringify(key), key);
  }
  if (keys.size === 0) return [];
  const nullable = new Set(as.filter((a) => !target.columns.find((col) => col.name === a)?.required));
  const on = as.map((a) =>
    nullable.has(a) ? `v.${ident(a)} is not distinct from s.${ident(a)}` : `v.${ident(a)} = s.${ident(a)}`,
  );
  const recordset = `jsonb_to_recordset($1::jsonb) as s(${as.map((a, i) => `${ident(a)} ${PG_TYPES[types[i] ?? 'text']}`).join(', ')})`;
  const sql =
    mode === 'missing'
      ? `select s.* from ${recordset} where not exists (select 1 from app.${target.name} v where ${on.join(' and ')}) limit 5`
      : `select ${as.map((a) => `s.${ident(a)}`).join(', ')}, count(*)::int as n
           from (select distinct * from ${recordset}) s join app.${target.name} v on ${on.join(' and ')}
          group by ${as.map((a) => `s.${ident(a)}`).join(', ')} having count(*) > 1 limit 5`;
  const { rows: found } = await client.query<Row>(sql, [JSON.stringify([...keys.values()])]);
  return found;
}

/** The data through the views, sampled: keys, tenants, references, required columns. */
async function checkData(client: pg.ClientBase, usable: Set<string>, sampleRows: number, f: Findings): Promise<void> {
  const samples = new Map<string, Sample>();
  // Views without a key are aggregates or unions of the others: their first rows would cost
  // a scan of the ERP's orders or invoices, and the views they derive from are sampled.
  for (const v of VIEW_CONTRACT.filter((x) => x.kind === 'view' && x.key && usable.has(x.name) && !x.campoOnly)) {
    const cols = new Set<string>([
      ...(v.key ?? []),
      ...v.columns.filter((col) => col.required).map((col) => col.name),
      ...(v.references ?? []).flatMap((r) => r.columns),
    ]);
    if (cols.size === 0) continue;
    const run = await guarded(client, () =>
      client.query<Row>(`select ${[...cols].map(ident).join(', ')} from app.${v.name} limit ${sampleRows}`),
    );
    if (!run.ok) {
      f.problem('data', `${v.name}: the sample of ${sampleRows} rows failed: ${messageOf(run.error)}`);
      continue;
    }
    samples.set(v.name, { view: v, rows: run.value.rows });
  }
  const empresas = samples.get('vw_empresas');
  if (empresas && !empresas.rows.some((r) => r.matriz === true)) {
    f.problem('data', 'vw_empresas has no head office (matriz): Campo has no tenant to serve');
  }
  for (const name of ['vw_vendedores', 'vw_clientes', 'vw_produtos', 'vw_precos']) {
    if (samples.get(name)?.rows.length === 0)
      f.problem('data', `${name} has no rows: Campo would have nothing to show`);
  }
  const headOffices = new Set<number>();
  if (empresas) {
    const { rows } = await client.query<{ id: number }>(
      'select id_filial::int as id from app.vw_empresas where matriz and id_filial = id_empresa',
    );
    for (const r of rows) headOffices.add(Number(r.id));
  }
  for (const { view, rows } of samples.values()) {
    for (const col of view.columns.filter((x) => x.required)) {
      const nulls = rows.filter((r) => r[col.name] === null || r[col.name] === undefined).length;
      if (nulls > 0)
        f.problem(
          'data',
          `${view.name}.${col.name} is null in ${nulls} of ${rows.length} sampled rows; Campo needs it`,
        );
    }
    if (empresas && view.columns.some((col) => col.name === 'id_empresa')) {
      const orphans = [...new Set(rows.map((r) => Number(r.id_empresa)))].filter((id) => !headOffices.has(id));
      if (orphans.length > 0) {
        f.problem(
          'data',
          `${view.name}: sampled rows belong to tenant ${orphans.slice(0, 5).join(', ')}, which is no head office of vw_empresas (matriz, id_filial = id_empresa)`,
        );
      }
    }
    if (view.key && rows.length > 0) {
      const run = await guarded(client, () => lookup(client, 'duplicated', rows, view.key ?? [], view, view.key ?? []));
      if (!run.ok) f.problem('data', `${view.name}: the key lookup failed: ${messageOf(run.error)}`);
      else if (run.value.length > 0) {
        const shown = run.value.map((r) => `${tuple(r, view.key ?? [])} ${r.n} times`).join(', ');
        f.problem('data', `${view.name}: key (${view.key.join(', ')}) is not unique per tenant: ${shown}`);
      }
    }
    for (const ref of view.references ?? []) {
      const target = contractOf(ref.view);
      if (!target || !usable.has(target.name)) continue;
      const run = await guarded(client, () => lookup(client, 'missing', rows, ref.columns, target, ref.as));
      if (!run.ok) f.problem('data', `${view.name}: the lookup in ${ref.view} failed: ${messageOf(run.error)}`);
      else if (run.value.length > 0) {
        f.problem(
          'data',
          `${view.name}: sampled rows name (${ref.columns.join(', ')}) = ${run.value.map((r) => tuple(r, ref.as)).join(', ')}, missing from ${ref.view}`,
        );
      }
    }
  }
  if (usable.has('vw_produtos') && usable.has('vw_precos')) {
    const run = await guarded(client, () =>
      client.query<{ sampled: number; unpriced: number }>(
        `select count(*)::int as sampled,
                count(*) filter (where not exists (select 1 from app.vw_precos pr
                                                    where pr.id_empresa = p.id_empresa and pr.id_produto = p.id_produto))::int as unpriced
           from (select id_empresa, id_produto from app.vw_produtos where ativo limit ${sampleRows}) p`,
      ),
    );
    const r = run.ok ? run.value.rows[0] : undefined;
    if (!run.ok) f.problem('data', `vw_produtos: the price lookup failed: ${messageOf(run.error)}`);
    else if (r && r.sampled > 0 && r.unpriced === r.sampled) {
      f.problem(
        'data',
        `none of ${r.sampled} sampled active products has a price in vw_precos: nothing could be ordered`,
      );
    } else if (r && r.unpriced > 0) {
      f.warning(
        'data',
        `${r.unpriced} of ${r.sampled} sampled active products have no price in vw_precos: they cannot be ordered`,
      );
    }
  }
}

/** Known values of vw_clientes_fiscal.regime, which vw_regras_fiscais.regime must name. */
const REGIMES = ['contribuinte', 'simples', 'consumidor_final', 'nao_contribuinte'];

/** Fiscal data Campo must not apply: each a condition on a view's rows, reported with its ids. */
const BAD_FISCAL_DATA: { view: string; id: string; noun: string; what: string; where: string }[] = [
  {
    view: 'vw_regras_fiscais',
    id: 'id_regra',
    noun: 'rule',
    what: 'a negative rate',
    where: 'least(aliq_icms, mva, aliq_icms_destino, perc_fcp, perc_fcp_st, perc_reducao_base) < 0',
  },
  {
    view: 'vw_regras_fiscais',
    id: 'id_regra',
    noun: 'rule',
    what: 'a rate or base reduction over 100 %',
    where: 'greatest(aliq_icms, aliq_icms_destino, perc_fcp, perc_fcp_st, perc_reducao_base) > 100',
  },
  { view: 'vw_regras_fiscais', id: 'id_regra', noun: 'rule', what: 'an MVA over 1,000 %', where: 'mva > 1000' },
  { view: 'vw_regras_fiscais', id: 'id_regra', noun: 'rule', what: 'no ICMS rate', where: 'aliq_icms is null' },
  {
    view: 'vw_regras_fiscais',
    id: 'id_regra',
    noun: 'rule',
    what: 'ICMS-ST without an MVA or the destination rate',
    where: 'icms_st and (mva is null or aliq_icms_destino is null)',
  },
  {
    view: 'vw_regras_fiscais',
    id: 'id_regra',
    noun: 'rule',
    what: 'an interstate rate other than 4, 7 or 12 %',
    where: 'uf_origem <> uf_destino and aliq_icms not in (4, 7, 12)',
  },
  {
    view: 'vw_regras_fiscais',
    id: 'id_regra',
    noun: 'rule',
    what: 'an NCM that is no prefix of 2 to 8 digits',
    where: 'ncm is not null and length(ncm) not between 2 and 8',
  },
  {
    view: 'vw_regras_fiscais',
    id: 'id_regra',
    noun: 'rule',
    what: 'a state missing or not of two letters',
    where: "coalesce(uf_origem, '') !~ '^[A-Z]{2}$' or coalesce(uf_destino, '') !~ '^[A-Z]{2}$'",
  },
  {
    view: 'vw_regras_fiscais',
    id: 'id_regra',
    noun: 'rule',
    what: `a regime other than ${REGIMES.join(', ')} (it matches no client)`,
    where: `regime is not null and regime not in (${REGIMES.map((r) => `'${r}'`).join(', ')})`,
  },
  {
    view: 'vw_produtos_fiscal',
    id: 'id_produto',
    noun: 'product',
    what: 'an IPI rate below 0 or over 100 %',
    where: 'perc_ipi < 0 or perc_ipi > 100',
  },
  {
    view: 'vw_produtos_fiscal',
    id: 'id_produto',
    noun: 'product',
    what: 'no NCM of 8 digits',
    where: 'ncm is null or length(ncm) <> 8',
  },
  {
    view: 'vw_produtos_fiscal',
    id: 'id_produto',
    noun: 'product',
    what: 'a CEST that is not 7 digits',
    where: 'cest is not null and length(cest) <> 7',
  },
  {
    view: 'vw_produtos_fiscal',
    id: 'id_produto',
    noun: 'product',
    what: 'an origin outside 0 to 8',
    where: 'origem is null or origem not between 0 and 8',
  },
];

const FISCAL_VIEWS = ['vw_produtos_fiscal', 'vw_clientes_fiscal', 'vw_regras_fiscais'];

/**
 * The ERP's fiscal data (optional), read whole: what an order must not apply, each kind one
 * warning with the first ids. Never a problem: provisioning works without fiscal data, and an
 * order prices a line without a rule Campo cannot trust.
 */
async function checkFiscalData(client: pg.ClientBase, usable: Set<string>, f: Findings): Promise<void> {
  const views = FISCAL_VIEWS.filter((v) => usable.has(v));
  const counts = new Map<string, number>();
  for (const v of views) {
    const run = await guarded(client, () => client.query<{ n: number }>(`select count(*)::int as n from app.${v}`));
    if (!run.ok) {
      f.warning('data', `${v}: the fiscal data could not be read: ${messageOf(run.error)}`);
      continue;
    }
    counts.set(v, run.value.rows[0]?.n ?? 0);
  }
  const empty = views.filter((v) => counts.get(v) === 0);
  if (empty.length > 0 && empty.length < views.length) {
    f.warning(
      'data',
      `${empty.join(' and ')} ${empty.length === 1 ? 'has' : 'have'} no rows while the other fiscal views have some: without all three Campo cannot compute taxes and shows prices without them`,
    );
  }
  for (const bad of BAD_FISCAL_DATA) {
    if (!counts.get(bad.view)) continue;
    const run = await guarded(client, () =>
      client.query<{ n: number; ids: number[] }>(
        `select count(*)::int as n, (array_agg(${bad.id} order by ${bad.id}))[1:5] as ids
           from app.${bad.view} where ${bad.where}`,
      ),
    );
    if (!run.ok) {
      f.warning('data', `${bad.view}: the check for ${bad.what} failed: ${messageOf(run.error)}`);
      continue;
    }
    const r = run.value.rows[0];
    if (r && r.n > 0) {
      f.warning(
        'data',
        `${bad.view}: ${r.n} ${bad.noun}${r.n === 1 ? ' has' : 's have'} ${bad.what} (${bad.id} ${r.ids.join(', ')}${r.n > 5 ? ', ...' : ''}); fix ${r.n === 1 ? 'it' : 'them'} in the ERP`,
      );
    }
  }
  if (counts.get('vw_regras_fiscais')) {
    const run = await guarded(client, () =>
      client.query<{
        total: number;
        id_empresa: number;
        ncm: string | null;
        uf_origem: string | null;
        uf_destino: string | null;
        regime: string | null;
        ids: number[];
      }>(
        `select count(*) over ()::int as total, id_empresa, ncm, uf_origem, uf_destino, regime,
                array_agg(id_regra order by id_regra) as ids
           from app.vw_regras_fiscais
          group by id_empresa, ncm, uf_origem, uf_destino, regime
         having count(*) > 1
          order by id_empresa, ncm, uf_origem, uf_destino, regime
          limit 5`,
      ),
    );
    if (!run.ok) f.warning('data', `vw_regras_fiscais: the check for repeated rules failed: ${messageOf(run.error)}`);
    else if (run.value.rows.length > 0) {
      const total = run.value.rows[0]?.total ?? 0;
      const shown = run.value.rows
        .map(
          (r) =>
            `tenant ${r.id_empresa} NCM ${r.ncm ?? 'any'} ${r.uf_origem}->${r.uf_destino} regime ${r.regime ?? 'any'} (id_regra ${r.ids.join(', ')})`,
        )
        .join('; ');
      f.warning(
        'data',
        `vw_regras_fiscais: ${total} NCM${total === 1 ? ' has' : 's have'} two or more rules for the same states and regime, and Campo cannot tell which applies: ${shown}${total > 5 ? '; ...' : ''}`,
      );
    }
  }
}

/**
 * Every sequence the rehearsal can advance, held inside the transaction: the defaults and
 * identities of the tables the triggers write and of Campo's tables, and the sequences the
 * profile's functions and triggers name in a nextval call (an ERP that numbers its orders
 * from a sequence of its own).
 */
async function holdSequences(client: pg.ClientBase, sources: SqlSources, f: Findings): Promise<boolean> {
  const written = erpContract(sources)
    .filter((r) => r.access === 'write')
    .map((r) => r.table);
  const named = sources.repeatables
    .filter((r) => r.kind === 'function' || r.kind === 'trigger')
    .flatMap((r) => [...r.sql.matchAll(/nextval\s*\(\s*'([^']+)'/gi)].map((m) => m[1] ?? ''));
  const { rows } = await client.query<{ seq: string }>(
    `with tabelas as (
       select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'app' and c.relkind in ('r', 'p')
       union
       select to_regclass(t)::oid from unnest($1::text[]) as t where to_regclass(t) is not null
     )
     select distinct s.oid::regclass::text as seq
       from pg_depend d
       join pg_class s on s.oid = d.refobjid and s.relkind = 'S'
      where d.classid = 'pg_attrdef'::regclass
        and d.objid in (select oid from pg_attrdef where adrelid in (select oid from tabelas))
     union
     select distinct s.oid::regclass::text
       from pg_depend d
       join pg_class s on s.oid = d.objid and s.relkind = 'S'
      where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
        and d.deptype in ('a', 'i') and d.refobjid in (select oid from tabelas)
     union
     select to_regclass(n)::text from unnest($2::text[]) as n
      where (select relkind from pg_class where oid = to_regclass(n)) = 'S'
      order by 1`,
    [written, named],
  );
  for (const { seq } of rows) {
    const held = await guarded(client, async () => {
      // A change that changes nothing takes the lock nextval conflicts with; then the value
      // read is the one a rollback must leave, and RESTART gives the sequence new storage
      // that the rollback discards.
      const { rows: opts } = await client.query<{ cycle: boolean }>(
        'select seqcycle as cycle from pg_sequence where seqrelid = $1::regclass',
        [seq],
      );
      await client.query(`alter sequence ${seq} ${opts[0]?.cycle ? 'cycle' : 'no cycle'}`);
      const { rows: now } = await client.query<{ last_value: string; is_called: boolean }>(
        `select last_value::text, is_called from ${seq}`,
      );
      await client.query(`alter sequence ${seq} restart`);
      await client.query('select setval($1::regclass, $2::bigint, $3)', [seq, now[0]?.last_value, now[0]?.is_called]);
    });
    if (!held.ok) {
      f.problem(
        'triggers',
        `not rehearsed: sequence ${seq} cannot be held unchanged (${messageOf(held.error)}); run the check as the role that provisions`,
      );
      return false;
    }
  }
  return true;
}

function cnpjWithDigits(base: string): string {
  const digit = (s: string) => {
    const weights = s.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = [...s].reduce((acc, ch, i) => acc + Number(ch) * (weights[i] ?? 0), 0);
    const rest = sum % 11;
    return rest < 2 ? '0' : String(11 - rest);
  };
  const first = base + digit(base);
  return first + digit(first);
}

const same = (a: unknown, b: unknown) =>
  a === null || a === undefined ? b === null || b === undefined : Number(a) === Number(b);

/** Approves a synthetic order and registers a synthetic client, and reads both back through the views. */
async function rehearse(client: pg.ClientBase, sources: SqlSources, f: Findings): Promise<void> {
  const pick = await guarded(client, () =>
    client.query<{
      id_empresa: number;
      id_cliente: number;
      cod_vendedor: number;
      id_pauta: number;
      razao_social: string;
      cnpj_cpf: string | null;
    }>(
      `select c.id_empresa, c.id_cliente, c.cod_vendedor, c.id_pauta, c.razao_social, c.cnpj_cpf
         from app.vw_clientes c
         join app.vw_vendedores v on v.id_empresa = c.id_empresa and v.cod_vendedor = c.cod_vendedor and v.ativo
        where c.cadastro_ativo is not false and c.id_pauta is not null
          and exists (select 1 from app.vw_precos pr
                        join app.vw_produtos p on p.id_empresa = pr.id_empresa and p.id_produto = pr.id_produto and p.ativo
                       where pr.id_empresa = c.id_empresa and pr.id_pauta = c.id_pauta)
        limit 1`,
    ),
  );
  const scenario = pick.ok ? pick.value.rows[0] : undefined;
  if (!scenario) {
    f.problem(
      'triggers',
      `not rehearsed: ${pick.ok ? 'no active client of an active representative, on a price list with a price for an active product' : messageOf(pick.error)}`,
    );
    return;
  }
  const products = await client.query<{ id_produto: number; preco: string; cod_produto: string; descricao: string }>(
    `select pr.id_produto, pr.preco::text as preco, p.cod_produto, p.descricao
       from app.vw_precos pr
       join app.vw_produtos p on p.id_empresa = pr.id_empresa and p.id_produto = pr.id_produto and p.ativo
      where pr.id_empresa = $1 and pr.id_pauta = $2
      order by pr.id_produto limit 2`,
    [scenario.id_empresa, scenario.id_pauta],
  );
  if (!(await holdSequences(client, sources, f))) return;

  const order = await guarded(client, async () => {
    const { rows } = await client.query<{ id: string }>(
      `insert into app.pedidos (id_empresa, cod_vendedor, num_ped_sar, id_cliente, nome_cliente, cnpj_cpf_cliente,
                                end_entrega, id_pauta, observacao, valor_bruto, valor_desconto, valor_total)
       values ($1, $2, coalesce((select max(num_ped_sar) from app.pedidos where id_empresa = $1), 0) + 1,
               $3, $4, $5, 'Rua do Ensaio, 1', $6, 'campo provision --check', 0, 0, 0)
       returning id::text`,
      [
        scenario.id_empresa,
        scenario.cod_vendedor,
        scenario.id_cliente,
        scenario.razao_social,
        scenario.cnpj_cpf,
        scenario.id_pauta,
      ],
    );
    const id = rows[0]?.id;
    let seq = 0;
    for (const p of products.rows) {
      seq += 1;
      await client.query(
        `insert into app.pedido_itens (id_pedido, seq, id_empresa, id_produto, cod_produto, descricao, quantidade,
                                       preco_tabela, preco_unitario, perc_desconto, teto_desconto, id_pauta, valor_total)
         values ($1, $2, $3, $4, $5, $6, 3, $7::numeric, round($7::numeric * 0.95, 4), 5, 10, $8,
                 round(round($7::numeric * 0.95, 4) * 3, 2))`,
        [id, seq, scenario.id_empresa, p.id_produto, p.cod_produto, p.descricao, p.preco, scenario.id_pauta],
      );
    }
    await client.query(
      `update app.pedidos p
          set valor_bruto = t.bruto, valor_desconto = t.bruto - t.total, valor_total = t.total
         from (select sum(round(preco_tabela * quantidade, 2)) as bruto, sum(valor_total) as total
                 from app.pedido_itens where id_pedido = $1) t
        where p.id = $1`,
      [id],
    );
    const approved = await client.query<Row>(
      `update app.pedidos set situa = 2, decidido_por = 'campo provision --check', decidido_em = now()
        where id = $1 returning erp_id_pedido, num_ped_sar, valor_total`,
      [id],
    );
    return { id, approved: approved.rows[0] ?? {} };
  });
  const t = 'trg_pedido_aprovado';
  if (!order.ok) {
    f.problem(
      'triggers',
      `${t}: approving a synthetic order of client ${scenario.id_cliente} failed: ${messageOf(order.error)}`,
    );
  } else {
    const erpId = order.value.approved.erp_id_pedido;
    if (erpId === null || erpId === undefined) {
      f.problem(
        'triggers',
        `${t}: the approval left app.pedidos.erp_id_pedido empty; the trigger must write the ERP order and set it`,
      );
    } else {
      f.rehearsal.idPedidoErp = Number(erpId);
      const head = await client.query<Row>('select * from app.vw_sitpedido where id_pedido = $1', [erpId]);
      const h = head.rows[0];
      if (!h) {
        f.problem(
          'triggers',
          `${t}: the approved order (ERP id ${erpId}) is not in vw_sitpedido: the trigger wrote nothing the view reads`,
        );
      } else {
        const expected: [string, unknown][] = [
          ['id_empresa', scenario.id_empresa],
          ['id_corrent', scenario.id_cliente],
          ['cod_vendedor', scenario.cod_vendedor],
          ['id_pauta', scenario.id_pauta],
          ['num_ped_sar', order.value.approved.num_ped_sar],
          ['valor_total', order.value.approved.valor_total],
        ];
        for (const [col, want] of expected) {
          if (!same(h[col], want))
            f.problem('triggers', `${t}: vw_sitpedido.${col} of the approved order is ${h[col]}, expected ${want}`);
        }
        if (h.situacao !== 'A')
          f.problem('triggers', `${t}: vw_sitpedido.situacao of the approved order is ${h.situacao}, expected A`);
        const numbers = await client.query<{ n: number }>(
          'select count(*)::int as n from app.vw_sitpedido where id_filial = $1 and num_pedido = $2',
          [h.id_filial, h.num_pedido],
        );
        if (h.num_pedido === null || numbers.rows[0]?.n !== 1) {
          f.problem(
            'triggers',
            `${t}: the approved order's num_pedido ${h.num_pedido} is not unique in its ERP company`,
          );
        }
        const lines = await client.query<Row>(
          `select i.seq, i.id_produto, i.quantidade, i.preco_tabela, i.preco_unitario, i.perc_desconto, i.valor_total
             from app.vw_pedidos_erp_itens i where i.id_pedido = $1 order by i.seq`,
          [erpId],
        );
        const want = await client.query<Row>(
          `select seq, id_produto, quantidade, preco_tabela, preco_unitario, perc_desconto, valor_total
             from app.pedido_itens where id_pedido = $1 order by seq`,
          [order.value.id],
        );
        if (lines.rows.length !== want.rows.length) {
          f.problem(
            'triggers',
            `${t}: vw_pedidos_erp_itens has ${lines.rows.length} lines for the approved order, expected ${want.rows.length}`,
          );
        } else {
          want.rows.forEach((w, i) => {
            const got = lines.rows[i] ?? {};
            for (const col of Object.keys(w)) {
              if (!same(got[col], w[col])) {
                f.problem(
                  'triggers',
                  `${t}: line ${w.seq} in vw_pedidos_erp_itens has ${col} ${got[col]}, expected ${w[col]}`,
                );
              }
            }
          });
        }
        const shown = await client.query<Row>(
          "select status, num_pedido_erp from app.vw_pedidos_cliente where origem = 'campo' and id_pedido = $1",
          [order.value.id],
        );
        const s = shown.rows[0];
        if (shown.rows.length !== 1 || s?.status !== 'approved' || !same(s?.num_pedido_erp, h.num_pedido)) {
          f.problem(
            'triggers',
            `${t}: vw_pedidos_cliente does not show the approved order once, approved, with the ERP's number`,
          );
        }
      }
    }
  }

  const n = 'trg_cliente_novo';
  let doc = '';
  for (let i = 0; i < 5 && doc === ''; i++) {
    const candidate = cnpjWithDigits(`99${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`);
    const taken = await client.query('select 1 from app.vw_clientes where id_empresa = $1 and cnpj_cpf = $2', [
      scenario.id_empresa,
      candidate,
    ]);
    if (taken.rows.length === 0) doc = candidate;
  }
  const razao = 'ENSAIO DO CAMPO PROVISION CHECK LTDA';
  const created = await guarded(client, () =>
    client.query<{ id_corrent_erp: number | null; sincronizado: boolean }>(
      `insert into app.clientes_novos (id_empresa, cod_vendedor, tipo_pessoa, razao_social, cnpj_cpf, cep, endereco,
                                       numero, bairro, cidade, uf, id_pauta)
       values ($1, $2, 'J', $3, $4, '01001000', 'Rua do Ensaio', '1', 'Centro', 'Sao Paulo', 'SP', $5)
       returning id_corrent_erp, sincronizado`,
      [scenario.id_empresa, scenario.cod_vendedor, razao, doc, scenario.id_pauta],
    ),
  );
  if (!created.ok) {
    f.problem('triggers', `${n}: registering a synthetic client failed: ${messageOf(created.error)}`);
    return;
  }
  const id = created.value.rows[0]?.id_corrent_erp;
  if (id === null || id === undefined) {
    f.problem(
      'triggers',
      `${n}: the new client's app.clientes_novos.id_corrent_erp is empty; the trigger must write the ERP client and set it`,
    );
    return;
  }
  f.rehearsal.idClienteErp = Number(id);
  const { rows } = await client.query<Row>(
    'select id_empresa, cod_vendedor, id_pauta, razao_social, cnpj_cpf from app.vw_clientes where id_cliente = $1',
    [id],
  );
  const row = rows[0];
  if (!row) {
    f.problem('triggers', `${n}: the new client (ERP id ${id}) is not in vw_clientes`);
    return;
  }
  const expected: [string, unknown][] = [
    ['id_empresa', scenario.id_empresa],
    ['cod_vendedor', scenario.cod_vendedor],
    ['id_pauta', scenario.id_pauta],
  ];
  for (const [col, want] of expected) {
    if (!same(row[col], want))
      f.problem('triggers', `${n}: vw_clientes.${col} of the new client is ${row[col]}, expected ${want}`);
  }
  for (const [col, want] of [
    ['razao_social', razao],
    ['cnpj_cpf', doc],
  ]) {
    if (col && row[col] !== want)
      f.problem('triggers', `${n}: vw_clientes.${col} of the new client is ${row[col]}, expected ${want}`);
  }
}

/** Every sequence's last value the role may see (null: never used, or not visible). */
async function sequenceValues(client: pg.ClientBase): Promise<Map<string, string | null>> {
  const { rows } = await client.query<{ seq: string; value: string | null }>(
    "select format('%I.%I', schemaname, sequencename) as seq, last_value::text as value from pg_sequences",
  );
  return new Map(rows.map((r) => [r.seq, r.value]));
}

/** Checks the database the pool points at against the profile's SQL and the views' contract. */
export async function checkProvisioning(pool: pg.Pool, options: CheckOptions = {}): Promise<CheckReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const sampleRows = options.sampleRows ?? 1000;
  const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
  const f = new Findings();
  let profile = '';
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw new ProvisionError('refused', `cannot connect to the database in DATABASE_URL: ${messageOf(err)}`);
  }
  let database = '';
  try {
    const server = await serverFacts(client);
    database = server.database;
    profile = options.sources?.profile ?? options.profile ?? (await recordedProfile(client)) ?? DEFAULT_PROFILE;
    const sources = await sqlSources(options.sources, profile);
    log(`ERP profile: ${profile}`);
    if (server.versionNum < MIN_SERVER_VERSION_NUM)
      f.problem('database', `PostgreSQL ${server.version}; Campo needs 12 or newer`);
    if (!isErpEncoding(server.encoding))
      f.problem('database', `encoding ${server.encoding}; Campo needs LATIN1, WIN1252 or UTF8`);
    if (f.problems.length > 0) return report();

    const contract = erpContract(sources);
    log(`checking the ERP tables and columns the profile's SQL declares (${contract.length} declarations)`);
    for (const p of await checkErpContract(client, contract)) f.problem('erp', p);
    if (f.problems.length > 0) {
      f.warning('erp', 'views, data and triggers not checked: the views cannot be created over what the ERP lacks');
      return report();
    }

    const sequencesBefore = await sequenceValues(client);
    await client.query('begin');
    try {
      await client.query(
        `set local statement_timeout = ${statementTimeoutMs}; set local lock_timeout = ${LOCK_TIMEOUT_MS}`,
      );
      log("creating the views and triggers from the profile's SQL, in a transaction that is rolled back");
      if (await install(client, sources, f)) {
        const usable = await compareViews(client, f);
        log(
          `sampling the data through the views (at most ${sampleRows} rows each, ${statementTimeoutMs / 1000} s per query)`,
        );
        // A statement that fails outside the per-query guards (a timeout in a follow-up read)
        // costs the step one line, never the report.
        const data = await guarded(client, () => checkData(client, usable, sampleRows, f));
        if (!data.ok) f.problem('data', `the data check stopped: ${messageOf(data.error)}`);
        const fiscal = await guarded(client, () => checkFiscalData(client, usable, f));
        if (!fiscal.ok) f.warning('data', `the fiscal data check stopped: ${messageOf(fiscal.error)}`);
        log('rehearsing the triggers: approving a synthetic order, registering a synthetic client');
        if (
          ['vw_clientes', 'vw_sitpedido', 'vw_pedidos_erp_itens', 'vw_precos', 'vw_produtos'].every((v) =>
            usable.has(v),
          )
        ) {
          const run = await guarded(client, () => rehearse(client, sources, f));
          if (!run.ok) f.problem('triggers', `the rehearsal stopped: ${messageOf(run.error)}`);
        } else {
          f.problem('triggers', 'not rehearsed: the views it reads back through do not fit the contract');
        }
      }
    } finally {
      await client.query('rollback');
    }
    // What the hold could not know of (a nextval through dynamic SQL) leaves a gap: say so.
    const sequencesAfter = await sequenceValues(client);
    for (const [seq, value] of sequencesAfter) {
      const was = sequencesBefore.get(seq);
      if (was !== undefined && was !== value) {
        f.warning(
          'triggers',
          `sequence ${seq} moved from ${was ?? 'unused'} to ${value ?? 'unused'} while the check ran: the ERP's own inserts, or a trigger drawing from it without naming it in nextval('...') (then a gap in its numbers)`,
        );
      }
    }
    return report();
  } finally {
    client.release();
  }

  function report(): CheckReport {
    const { idPedidoErp, idClienteErp } = f.rehearsal;
    return {
      ...(idPedidoErp !== undefined && idClienteErp !== undefined ? { rehearsal: { idPedidoErp, idClienteErp } } : {}),
      database,
      profile,
      fit: f.problems.length === 0,
      problems: f.problems,
      warnings: f.warnings,
      sampleRows,
      statementTimeoutMs,
      durationMs: Math.round(performance.now() - started),
    };
  }
}

/** The report as the CLI prints it: one line per problem and warning, then a summary. */
export function checkReportText(r: CheckReport): string {
  const lines = [
    ...r.problems.map((p) => `problem (${p.step}): ${p.message}`),
    ...r.warnings.map((w) => `warning (${w.step}): ${w.message}`),
  ];
  const seconds = `${(r.durationMs / 1000).toFixed(1)} s`;
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const verdict = r.fit ? 'fit for Campo' : count(r.problems.length, 'problem');
  lines.push(
    `Check of ${r.database}${r.profile ? ` (ERP profile ${r.profile})` : ''}: ${verdict}, ${count(r.warnings.length, 'warning')}; nothing was changed (${seconds}).`,
  );
  return `${lines.join('\n')}\n`;
}
