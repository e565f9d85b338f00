// What a chosen representative gets for a product, on a pauta and a date: the server runs the
// same shared discount engine as the cart (GET /politicas/alcada), so this is the real answer,
// not a re-implementation.
import type { CeilingPreview } from '@campo/shared';
import { useState } from 'preact/hooks';
import { api, errorMessage } from '../../api.ts';
import { DateField, dateProblem } from '../../kit/date-field.tsx';
import { day, pct, today } from '../../kit/format.ts';
import { useApi } from '../../kit/use-api.ts';
import { pautaName, repName, useLookups } from './lookups.ts';

const SOURCE = {
  category: 'alçada do representante para a categoria do produto',
  representative: 'alçada padrão do representante',
  default: 'alçada padrão da empresa (5%)',
  rule: 'regra',
} as const;

export function CeilingPreviewPanel() {
  const { reps, pautas } = useLookups();
  const [codVendedor, setCodVendedor] = useState('');
  const [idPauta, setIdPauta] = useState('');
  const [search, setSearch] = useState('');
  const [idProduto, setIdProduto] = useState('');
  const [data, setData] = useState(today());
  const [result, setResult] = useState<CeilingPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const products = useApi(search.trim().length >= 2 ? '/catalog' : null, {
    params: { query: { q: search.trim(), pageSize: 20 } },
  });

  const run = async (e: Event) => {
    e.preventDefault();
    if (!codVendedor || !idPauta || !idProduto) {
      setError('Escolha o representante, a pauta e o produto.');
      return;
    }
    const problem = dateProblem(data) ?? (data === '' ? 'Informe a data: dd/mm/aaaa.' : null);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const query = {
        codVendedor: Number(codVendedor),
        idPauta: Number(idPauta),
        idProduto: [Number(idProduto)],
        data,
      };
      setResult(await api.GET('/politicas/alcada', { params: { query } }));
    } catch (err) {
      setResult(null);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const line = result?.items[0];
  return (
    <article aria-labelledby="simulacao-titulo">
      <h2 id="simulacao-titulo">Simular alçada</h2>
      <p class="mg-muted">Veja o teto de desconto que um representante terá para um produto numa pauta e data.</p>
      <form onSubmit={run}>
        <label>
          Representante
          <select value={codVendedor} onChange={(e) => setCodVendedor(e.currentTarget.value)} required>
            <option value="">Escolha…</option>
            {reps.map((r) => (
              <option key={r.codVendedor} value={r.codVendedor}>
                {repName(r)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Pauta da simulação
          <select value={idPauta} onChange={(e) => setIdPauta(e.currentTarget.value)} required>
            <option value="">Escolha…</option>
            {pautas.map((p) => (
              <option key={p.idPauta} value={p.idPauta}>
                {pautaName(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Buscar produto
          <input
            type="search"
            value={search}
            placeholder="Descrição ou código (2 letras ou mais)"
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
        <label>
          Produto
          <select value={idProduto} onChange={(e) => setIdProduto(e.currentTarget.value)} required>
            <option value="">{products.loading ? 'Buscando…' : 'Escolha…'}</option>
            {(products.data?.items ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.code} — {p.description}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor="previa-data">
          Data
          <DateField id="previa-data" value={data} onChange={setData} required />
        </label>
        <button type="submit" aria-busy={busy ? 'true' : undefined}>
          Simular
        </button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {line && result && (
        <div role="status" class="notice">
          <p>
            Em {day(result.data)}, o teto deste produto é <strong>{pct(line.ceilingPercent)}</strong>, pela{' '}
            {line.source === 'rule' && line.rule ? `regra "${line.rule.descricao}"` : SOURCE[line.source]}.
          </p>
          <p class="mg-muted">
            Alçada própria: {pct(line.basePercent)} ({SOURCE[line.baseSource]}). Um item novo no carrinho começa com{' '}
            {pct(line.prefillPercent)} de desconto
            {line.prefillRule ? ` (regra "${line.prefillRule.descricao}")` : ''}.
          </p>
        </div>
      )}
    </article>
  );
}
