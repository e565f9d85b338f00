// New clients registered in the field (POST /clients and the cadastros collection). The row
// goes into app.clientes_novos and trg_cliente_novo creates the ERP record in the same
// statement, so the client is in the ERP — and in the representative's portfolio — when the
// answer comes. Idempotent by the device's id: a registration sent twice (a lost answer, an
// outbox retry) creates one client. Text bound for the ERP is made to fit the database's
// encoding here, before it reaches the database (an emoji would fail the statement in a LATIN1
// or WIN1252 database); the trigger cuts it to the ERP's column widths.
import { type ErrorCode, type NewClient, type NewClientResult, toErpText } from '@campo/shared';
import { sql } from 'kysely';
import { assertOwner, owns, representativeFor, scopeOf } from '../auth/authorize.ts';
import { touchDocuments, touchSqlDocuments } from '../changelog/changelog.ts';
import { erpEncoding } from '../db/encoding.ts';
import type { Db } from '../db/kysely.ts';
import { type Tx, withScope } from '../db/scope.ts';
import { pautaExists } from '../directory/service.ts';
import { DomainError, type ProblemExtra } from '../errors.ts';
import type { AuthContext } from '../http/env.ts';
import { loadRegistrationDocs } from './documents.ts';
import { portfolioDocuments } from './portfolio-documents.ts';

function fieldProblem(code: ErrorCode, field: string, detail: string, extra: ProblemExtra = {}): DomainError {
  return new DomainError(code, detail, {
    errors: [{ path: `body.${field}`, message: detail }],
    ...extra,
  });
}

async function existingRegistration(tx: Tx, idEmpresa: number, chave: string) {
  return tx
    .selectFrom('app.clientes_novos')
    .select(['cod_vendedor', 'id_corrent_erp', 'razao_social', 'cnpj_cpf', 'criado_em'])
    .where('id_empresa', '=', idEmpresa)
    .where('chave', '=', chave)
    .executeTakeFirst();
}

/** The client of the tenant with this document, in the ERP or registered through Campo. */
async function sameDocument(tx: Tx, idEmpresa: number, documento: string) {
  const inErp = await tx
    .selectFrom('app.vw_clientes')
    .select(['id_cliente', 'razao_social', 'cod_vendedor'])
    .where('id_empresa', '=', idEmpresa)
    .where('cnpj_cpf', '=', documento)
    .executeTakeFirst();
  if (inErp) return inErp;
  const registered = await tx
    .selectFrom('app.clientes_novos')
    .select(['id_corrent_erp as id_cliente', 'razao_social', 'cod_vendedor'])
    .where('id_empresa', '=', idEmpresa)
    .where('cnpj_cpf', '=', documento)
    .executeTakeFirst();
  return registered;
}

const result = (
  id: string,
  row: { id_corrent_erp: number | null; razao_social: string; cnpj_cpf: string; criado_em: Date | string },
): NewClientResult => ({
  id,
  idCliente: row.id_corrent_erp as number,
  razaoSocial: row.razao_social,
  documento: row.cnpj_cpf,
  criadoEm: new Date(row.criado_em).toISOString(),
});

export async function registerClient(
  db: Db,
  auth: AuthContext,
  input: NewClient,
): Promise<{ created: boolean; body: NewClientResult }> {
  const codVendedor = representativeFor(auth, 'clients.register');
  return withScope(db, scopeOf(auth), async (tx) => {
    // Registrations of one id are serialised, so two retries racing cannot both insert.
    await sql`select pg_advisory_xact_lock(hashtext(${`campo.cadastro:${input.id}`}))`.execute(tx);
    const previous = await existingRegistration(tx, auth.idEmpresa, input.id);
    if (previous) {
      assertOwner(auth, previous.cod_vendedor, 'Este cadastro');
      return { created: false, body: result(input.id, previous) };
    }
    const same = await sameDocument(tx, auth.idEmpresa, input.documento);
    if (same) {
      // Name the existing client only to the representative whose portfolio holds it.
      const mine = owns(auth, same.cod_vendedor);
      throw fieldProblem(
        'CLIENT_DOCUMENT_EXISTS',
        'documento',
        mine
          ? `Este documento já é do seu cliente ${same.razao_social ?? ''} (código ${same.id_cliente}).`
          : 'Este documento já está cadastrado para a empresa, na carteira de outro representante.',
        mine ? { idCliente: same.id_cliente } : {},
      );
    }
    if (!(await pautaExists(tx, auth.idEmpresa, input.idPauta))) {
      throw fieldProblem('PRICE_LIST_NOT_FOUND', 'idPauta', `A pauta ${input.idPauta} não existe nesta empresa.`);
    }
    const encoding = await erpEncoding(tx);
    const erp = (v: string | null, max = 100) => (v === null ? null : toErpText(v, max, encoding));
    let row: { id: number; id_corrent_erp: number | null; razao_social: string; cnpj_cpf: string; criado_em: Date };
    try {
      row = await tx
        .insertInto('app.clientes_novos')
        .values({
          id_empresa: auth.idEmpresa,
          cod_vendedor: codVendedor,
          chave: input.id,
          tipo_pessoa: input.documento.length === 11 ? 'F' : 'J',
          razao_social: erp(input.razaoSocial) as string,
          nome_fantasia: erp(input.nomeFantasia),
          cnpj_cpf: input.documento,
          inscricao_estadual: input.inscricaoEstadual,
          cep: input.cep,
          endereco: erp(input.endereco) as string,
          numero: erp(input.numero, 10),
          complemento: erp(input.complemento, 60),
          bairro: erp(input.bairro, 60) as string,
          cidade: erp(input.cidade, 60) as string,
          uf: input.uf,
          telefone: input.telefone === null ? null : input.telefone.replace(/\D/g, ''),
          email: erp(input.email),
          id_pauta: input.idPauta,
        })
        .returning(['id', 'cod_vendedor', 'id_corrent_erp', 'razao_social', 'cnpj_cpf', 'criado_em'])
        .executeTakeFirstOrThrow();
    } catch (err) {
      // The trigger's own checks (the ERP's rules): refused, naming what the ERP objected to.
      const pgCode = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
      if (['23505', '23514', '23502', '23503'].includes(pgCode)) {
        throw new DomainError('ERP_REFUSED_CLIENT', (err as Error).message);
      }
      throw err;
    }
    // The new client reaches the representative's devices (collection clientes) at once.
    await touchSqlDocuments(tx, auth.idEmpresa, portfolioDocuments, codVendedor, [row.id_corrent_erp as number]);
    await touchDocuments(
      tx,
      auth.idEmpresa,
      'cadastros',
      codVendedor,
      await loadRegistrationDocs(tx, auth.idEmpresa, [String(row.id)]),
    );
    return { created: true, body: result(input.id, row) };
  });
}
