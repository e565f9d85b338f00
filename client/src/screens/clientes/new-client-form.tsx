// "Novo cliente": a registration written in the field, with or without signal. It is checked
// here with the same contract the server applies (ZNewClient), so a typo in a check digit or a
// CEP is caught while the client is still in front of the representative; then it waits in
// the outbox under its own id until the server creates the ERP record.

import { type NewClient, UFS, ZNewClient } from '@campo/shared/clients';
import { normalizeDocument } from '@campo/shared/documents';
import { clientDisplayName } from '@campo/shared/format';
import { signal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { combineLatest, map, type Observable } from 'rxjs';
import { usePautaName } from '../../data/company.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import type { Store } from '../../data/store.ts';
import { type ClientDoc, collectionOf, type RegistrationDoc } from '../../db/index.ts';
import { maskCep, maskDocument, maskPhone } from '../../kit/field-format.ts';
import { StoreGate } from '../../kit/store-gate.tsx';

type FieldName = Exclude<keyof NewClient, 'id'>;
type Form = Record<FieldName, string> & { isento: boolean };

const EMPTY: Form = {
  razaoSocial: '',
  nomeFantasia: '',
  documento: '',
  inscricaoEstadual: '',
  cep: '',
  endereco: '',
  numero: '',
  complemento: '',
  bairro: '',
  cidade: '',
  uf: '',
  telefone: '',
  email: '',
  idPauta: '',
  isento: false,
};

const ORDER: FieldName[] = [
  'razaoSocial',
  'nomeFantasia',
  'documento',
  'inscricaoEstadual',
  'cep',
  'endereco',
  'numero',
  'complemento',
  'bairro',
  'cidade',
  'uf',
  'telefone',
  'email',
  'idPauta',
];

/**
 * What the person is typing outlives the screen: leaving for another tab of the app and
 * coming back (to look up a client's address, say) finds the form as it was.
 */
const draft = signal<Form>(EMPTY);
const draftOf = signal<string | null>(null);
/** The refused registration whose data was put in the form, so corrections are not overwritten. */
const filledFrom = signal<string | null>(null);

type Errors = Partial<Record<FieldName, string>>;

const REQUIRED: ReadonlySet<FieldName> = new Set([
  'razaoSocial',
  'documento',
  'inscricaoEstadual',
  'cep',
  'endereco',
  'bairro',
  'cidade',
  'uf',
  'idPauta',
]);

function sentence(message: string): string {
  if (message === 'obrigatório') return 'Preencha este campo.';
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The form as ZNewClient's input: empty optional fields absent, the pauta a number. */
function inputOf(form: Form): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of ORDER) {
    const value = form[name];
    if (name === 'idPauta') {
      if (value !== '') input.idPauta = Number(value);
    } else if (name === 'inscricaoEstadual') {
      input.inscricaoEstadual = form.isento ? 'ISENTO' : value;
    } else if (name === 'email') {
      if (value.trim() !== '') input.email = value.trim();
    } else {
      input[name] = value;
    }
  }
  return input;
}

/** A refused registration's data back into the form, masks put back on. */
function formOf(dados: Record<string, unknown>): Form {
  const text = (k: string) => (typeof dados[k] === 'string' ? (dados[k] as string) : '');
  const ie = text('inscricaoEstadual');
  return {
    razaoSocial: text('razaoSocial'),
    nomeFantasia: text('nomeFantasia'),
    documento: maskDocument(text('documento')),
    inscricaoEstadual: ie === 'ISENTO' ? '' : ie,
    isento: ie === 'ISENTO',
    cep: maskCep(text('cep')),
    endereco: text('endereco'),
    numero: text('numero'),
    complemento: text('complemento'),
    bairro: text('bairro'),
    cidade: text('cidade'),
    uf: text('uf'),
    telefone: maskPhone(text('telefone')),
    email: text('email'),
    idPauta: typeof dados.idPauta === 'number' ? String(dados.idPauta) : '',
  };
}

function errorsOf(issues: { path: PropertyKey[]; message: string }[], form: Form): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const name = issue.path[0] as FieldName | undefined;
    if (!name || errors[name]) continue;
    // The only type error the form can produce: no pauta chosen (zod's own text is English).
    if (name === 'idPauta') errors[name] = 'Escolha a pauta de preço.';
    else if (name === 'uf' && form.uf === '') errors[name] = 'Escolha a UF.';
    else errors[name] = sentence(issue.message);
  }
  return errors;
}

/**
 * Pautas the device knows (every product carries a price per pauta; clients name theirs) and
 * the portfolio's usual one, following the store as the first download fills it.
 */
function knownPautas$(s: Store): Observable<{ ids: number[]; usual: number | null }> {
  return combineLatest([collectionOf(s.db, 'produtos').findOne().$, collectionOf(s.db, 'clientes').find().$]).pipe(
    map(([product, clients]) => {
      const count = new Map<number, number>();
      for (const c of clients) if (c.idPauta !== null) count.set(c.idPauta, (count.get(c.idPauta) ?? 0) + 1);
      const ids = new Set<number>(count.keys());
      for (const p of product?.prices ?? []) ids.add(p.idPauta);
      const usual = [...count.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
      return { ids: [...ids].sort((a, b) => a - b), usual };
    }),
  );
}

export function NewClientForm() {
  return <StoreGate>{(s) => <NewClientBody store={s} />}</StoreGate>;
}

function NewClientBody(props: { store: Store }) {
  const pautaName = usePautaName();
  const { query, route } = useLocation();
  const editing = query.cadastro ?? null;
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const known = useStoreObservable<{ ids: number[]; usual: number | null }>(knownPautas$, { ids: [], usual: null });
  const pautas = known.ids;
  const [refusal, setRefusal] = useState<RegistrationDoc | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const form = draft.value;

  // A different registration (or a new one after a correction) starts from its own data.
  useEffect(() => {
    if (draftOf.peek() === editing) return;
    draftOf.value = editing;
    draft.value = EMPTY;
    setErrors({});
  }, [editing]);

  useEffect(() => {
    if (!editing) {
      setRefusal(null);
      return;
    }
    void collectionOf(props.store.db, 'cadastros')
      .findOne(editing)
      .exec()
      .then((doc) => {
        const r = doc ? (doc.toJSON() as RegistrationDoc) : null;
        setRefusal(r);
        // Only the first visit fills the form: the corrections typed since must survive.
        if (r && filledFrom.peek() !== editing) {
          filledFrom.value = editing;
          draft.value = formOf((r.dados ?? {}) as Record<string, unknown>);
        }
      });
  }, [editing, props.store]);

  // The usual pauta pre-selected while none is chosen, as soon as the portfolio names one.
  useEffect(() => {
    if (draft.peek().idPauta === '' && known.usual !== null)
      draft.value = { ...draft.peek(), idPauta: String(known.usual) };
  }, [known.usual]);

  const set = (name: keyof Form, value: string | boolean) => {
    draft.value = { ...draft.peek(), [name]: value };
    if (name in errors) setErrors({ ...errors, [name]: undefined });
  };

  const field = (name: FieldName, mask?: (v: string) => string) => ({
    id: `cliente-${name}`,
    name,
    value: form[name],
    'aria-required': REQUIRED.has(name) ? ('true' as const) : undefined,
    'aria-invalid': errors[name] ? ('true' as const) : undefined,
    'aria-describedby': errors[name] ? `cliente-${name}-erro` : undefined,
    onInput: (e: Event) => {
      const el = e.currentTarget as HTMLInputElement;
      set(name, mask ? mask(el.value) : el.value);
    },
  });
  const message = (name: FieldName) =>
    errors[name] ? <small id={`cliente-${name}-erro`}>{errors[name]}</small> : null;

  const focusFirst = (found: Errors) => {
    const first = ORDER.find((n) => found[n]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    setFailure(null);
    const current = draft.peek();
    // The outbox gives the registration its id; any UUID stands in for it while checking.
    const parsed = ZNewClient.safeParse({ ...inputOf(current), id: crypto.randomUUID() });
    if (!parsed.success) {
      const found = errorsOf(parsed.error.issues, current);
      setErrors(found);
      focusFirst(found);
      return;
    }
    const { id: _id, ...dados } = parsed.data;
    setSaving(true);
    try {
      const same = await collectionOf(props.store.db, 'clientes')
        .findOne({ selector: { document: normalizeDocument(dados.documento) } })
        .exec();
      if (same) {
        const c = same.toJSON() as ClientDoc;
        const found = { documento: `Este documento já é do cliente ${clientDisplayName(c)} da sua carteira.` };
        setErrors(found);
        focusFirst(found);
        return;
      }
      const outbox = props.store.outbox;
      if (!outbox) throw new Error('Só representantes cadastram clientes.');
      if (editing) await outbox.resendRegistration(editing, dados);
      else await outbox.queueRegistration(dados);
      draft.value = EMPTY;
      draftOf.value = null;
      filledFrom.value = null;
      route('/clientes');
    } catch (err) {
      setFailure(err instanceof Error ? err.message : 'Não foi possível guardar o cadastro. Tente de novo.');
    } finally {
      setSaving(false);
    }
  };

  const errorCount = Object.values(errors).filter(Boolean).length;

  return (
    <article class="new-client">
      <a href="/clientes">← Clientes</a>
      <h1>{editing ? 'Corrigir cadastro' : 'Novo cliente'}</h1>
      <p class="muted">
        O cadastro fica guardado neste aparelho e vai para o ERP assim que houver conexão. Campos com * são
        obrigatórios.
      </p>
      {refusal?.status === 'refused' && (
        <div class="notice" role="note">
          <strong>O ERP recusou este cadastro:</strong>
          <ul>
            {refusal.reasons.map((r) => (
              <li key={`${r.code}-${r.message}`}>{r.message}</li>
            ))}
          </ul>
        </div>
      )}
      {errorCount > 0 && (
        <p role="alert" class="error">
          {errorCount === 1 ? 'Corrija o campo marcado.' : `Corrija os ${errorCount} campos marcados.`}
        </p>
      )}
      <form ref={formRef} onSubmit={submit} noValidate>
        <label for="cliente-razaoSocial">
          Razão social
          <span aria-hidden="true"> *</span>
        </label>
        <input {...field('razaoSocial')} autocomplete="organization" maxLength={100} />
        {message('razaoSocial')}

        <label for="cliente-nomeFantasia">Nome fantasia</label>
        <input {...field('nomeFantasia')} maxLength={100} />
        {message('nomeFantasia')}

        <label for="cliente-documento">
          CNPJ ou CPF
          <span aria-hidden="true"> *</span>
        </label>
        <input {...field('documento', maskDocument)} inputMode="text" autocapitalize="characters" />
        {message('documento')}

        <fieldset>
          <label for="cliente-inscricaoEstadual">
            Inscrição estadual
            <span aria-hidden="true"> *</span>
          </label>
          <input {...field('inscricaoEstadual')} disabled={form.isento} inputMode="numeric" maxLength={20} />
          {message('inscricaoEstadual')}
          <label>
            <input
              type="checkbox"
              name="isento"
              checked={form.isento}
              onChange={(e) => set('isento', e.currentTarget.checked)}
            />
            Isento de inscrição estadual
          </label>
        </fieldset>

        <div class="grid-2">
          <div>
            <label for="cliente-cep">
              CEP
              <span aria-hidden="true"> *</span>
            </label>
            <input {...field('cep', maskCep)} inputMode="numeric" autocomplete="postal-code" />
            {message('cep')}
          </div>
          <div>
            <label for="cliente-uf">
              UF
              <span aria-hidden="true"> *</span>
            </label>
            <select {...field('uf')} onChange={(e) => set('uf', e.currentTarget.value)}>
              <option value="">Escolha</option>
              {UFS.map((uf) => (
                <option key={uf} value={uf}>
                  {uf}
                </option>
              ))}
            </select>
            {message('uf')}
          </div>
        </div>

        <label for="cliente-endereco">
          Endereço
          <span aria-hidden="true"> *</span>
        </label>
        <input {...field('endereco')} autocomplete="address-line1" maxLength={100} />
        {message('endereco')}

        <div class="grid-2">
          <div>
            <label for="cliente-numero">Número</label>
            <input {...field('numero')} maxLength={10} placeholder="S/N" />
            {message('numero')}
          </div>
          <div>
            <label for="cliente-complemento">Complemento</label>
            <input {...field('complemento')} maxLength={60} />
            {message('complemento')}
          </div>
        </div>

        <label for="cliente-bairro">
          Bairro
          <span aria-hidden="true"> *</span>
        </label>
        <input {...field('bairro')} maxLength={60} />
        {message('bairro')}

        <label for="cliente-cidade">
          Cidade
          <span aria-hidden="true"> *</span>
        </label>
        <input {...field('cidade')} autocomplete="address-level2" maxLength={60} />
        {message('cidade')}

        <label for="cliente-telefone">Telefone</label>
        <input {...field('telefone', maskPhone)} type="tel" inputMode="tel" autocomplete="tel" />
        {message('telefone')}

        <label for="cliente-email">E-mail</label>
        <input {...field('email')} type="email" autocomplete="email" maxLength={100} />
        {message('email')}

        <label for="cliente-idPauta">
          Pauta de preço
          <span aria-hidden="true"> *</span>
        </label>
        <select {...field('idPauta')} onChange={(e) => set('idPauta', e.currentTarget.value)}>
          <option value="">Escolha</option>
          {pautas.map((p) => (
            <option key={p} value={String(p)}>
              {pautaName(p)}
            </option>
          ))}
        </select>
        {message('idPauta')}

        {failure && (
          <p role="alert" class="error">
            {failure}
          </p>
        )}
        <button type="submit" aria-busy={saving ? 'true' : undefined} disabled={saving}>
          {editing ? 'Reenviar cadastro' : 'Cadastrar cliente'}
        </button>
      </form>
    </article>
  );
}
