// Crédito e flex (managers only): the tenant's policy for an order beyond the client's
// available credit and the flex settings (docs/credit-and-flex.md). Saved whole with
// PUT /catalog/company/money-rules; the devices receive them with the company document.
import { type Company, type CreditPolicy, DEFAULT_MONEY_RULES, type MoneyRules } from '@campo/shared';
import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api.ts';
import { FieldError } from '../../kit/field-error.tsx';
import { fieldMessages } from '../../kit/use-api.ts';
import { Notices } from './notices.tsx';

const POLICIES: { value: CreditPolicy; label: string; help: string }[] = [
  {
    value: 'flag',
    label: 'Sinalizar para o aprovador',
    help: 'O pedido é aceito e chega à aprovação marcado, com o limite, o valor em aberto e o disponível.',
  },
  {
    value: 'block',
    label: 'Bloquear o pedido',
    help: 'O pedido é recusado; o representante vê o limite, o valor em aberto e o disponível.',
  },
  { value: 'ignore', label: 'Ignorar', help: 'O pedido é aceito sem marca: o crédito não é conferido.' },
];

type Field = keyof MoneyRules;
type NumberField = Exclude<Field, 'creditPolicy'>;

/** The two numbers, as the manager reads them; `what` names the value in its error. */
const NUMBERS: { name: NumberField; label: string; help: string; placeholder: string; what: string }[] = [
  {
    name: 'flexCreditSharePercent',
    label: '% do valor acima da tabela que vai para o saldo flex',
    help: 'Quando o representante vende acima da tabela, esta parte da diferença entra no saldo flex dele, na aprovação do pedido. 0 desliga o crédito de flex.',
    placeholder: 'Ex.: 50',
    what: 'um percentual',
  },
  {
    name: 'flexMaxBeyondCeilingPoints',
    label: 'Desconto máximo além do teto (pontos percentuais)',
    help: 'Quanto o desconto de um item pode passar do teto, pago com o saldo flex: teto de 10% e 5 pontos permitem até 15%. 0 desliga o uso do flex.',
    placeholder: 'Ex.: 5',
    what: 'os pontos percentuais',
  },
];

/** A percentage as the manager reads it: "7,5". */
const shown = (n: number) => String(n).replace('.', ',');
/** A decimal typed the Brazilian way ("7,5") or with a dot; NaN when it is not a number. */
const parsed = (s: string) => (s.trim() === '' ? Number.NaN : Number(s.replace(',', '.').trim()));

/** The two numbers of saved rules, as the form shows them. */
const typedFrom = (r: MoneyRules): Record<NumberField, string> => ({
  flexCreditSharePercent: shown(r.flexCreditSharePercent),
  flexMaxBeyondCeilingPoints: shown(r.flexMaxBeyondCeilingPoints),
});

/** Same bounds as the contract (ZMoneyRules): 0 to 100 with at most two decimals. */
function percentError(s: string, what: string): string | undefined {
  const n = parsed(s);
  if (!Number.isFinite(n) || n < 0 || n > 100) return `Informe ${what} de 0 a 100.`;
  if (!/^\d+([.,]\d{1,2})?$/.test(s.trim())) return 'Use no máximo duas casas decimais.';
  return undefined;
}

/** One of the two numbers, with its explanation and its error. */
function PercentField(props: {
  field: (typeof NUMBERS)[number];
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const errorId = `erro-${props.field.name}`;
  return (
    <label>
      {props.field.label}
      <input
        inputMode="decimal"
        value={props.value}
        placeholder={props.field.placeholder}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        {...(props.error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
      />
      <FieldError id={errorId} message={props.error} />
      <small class="mg-muted field-help">{props.field.help}</small>
    </label>
  );
}

export function MoneyRulesSection(props: { company: Company; onSaved: (c: Company) => void }) {
  const rules = props.company.moneyRules ?? DEFAULT_MONEY_RULES;
  const [policy, setPolicy] = useState<CreditPolicy>(rules.creditPolicy);
  const [typed, setTyped] = useState(() => typedFrom(rules));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (e: Event) => {
    e.preventDefault();
    setMessage(null);
    setFormError(null);
    const local: Partial<Record<Field, string>> = {};
    for (const f of NUMBERS) {
      const error = percentError(typed[f.name], f.what);
      if (error) local[f.name] = error;
    }
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const saved = await api.PUT('/catalog/company/money-rules', {
        body: {
          creditPolicy: policy,
          flexCreditSharePercent: parsed(typed.flexCreditSharePercent),
          flexMaxBeyondCeilingPoints: parsed(typed.flexMaxBeyondCeilingPoints),
        },
      });
      props.onSaved({ ...props.company, moneyRules: saved });
      setTyped(typedFrom(saved));
      setMessage('Regras de crédito e flex salvas. Os aparelhos recebem na próxima sincronização.');
    } catch (err) {
      // The form keeps what was typed; the API names each bad field.
      const fields = fieldMessages(err) as Partial<Record<Field, string>>;
      setErrors(fields);
      setFormError(Object.keys(fields).length ? 'Corrija os campos marcados.' : errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article aria-labelledby="credito-flex-titulo">
      <h2 id="credito-flex-titulo">Crédito e flex</h2>
      <form onSubmit={save} noValidate>
        <fieldset aria-describedby={errors.creditPolicy ? 'erro-creditPolicy' : undefined}>
          <legend>Política para pedido acima do crédito disponível</legend>
          <p class="mg-muted">
            Crédito disponível = limite do cliente − títulos em aberto no ERP − pedidos aceitos e ainda não faturados.
            Clientes sem limite não são conferidos.
          </p>
          {POLICIES.map((p) => (
            <label key={p.value} class="policy-option">
              <input
                type="radio"
                name="creditPolicy"
                value={p.value}
                checked={policy === p.value}
                aria-describedby={`politica-${p.value}-ajuda`}
                onChange={() => setPolicy(p.value)}
              />
              {p.label}
              <small id={`politica-${p.value}-ajuda`} class="mg-muted">
                {p.help}
              </small>
            </label>
          ))}
          <FieldError id="erro-creditPolicy" message={errors.creditPolicy} />
        </fieldset>
        <div class="grid">
          {NUMBERS.map((f) => (
            <PercentField
              key={f.name}
              field={f}
              value={typed[f.name]}
              error={errors[f.name]}
              onInput={(value) => setTyped((t) => ({ ...t, [f.name]: value }))}
            />
          ))}
        </div>
        <Notices error={formError} message={message} />
        <button type="submit" disabled={busy} aria-busy={busy ? 'true' : undefined}>
          Salvar regras de crédito e flex
        </button>
      </form>
    </article>
  );
}
