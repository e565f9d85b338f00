// Empresa (managers): the logo printed on every order, the daily positivation target, and the
// credit policy and flex settings (money-rules.tsx).
import type { Company } from '@campo/shared';
import { useEffect, useState } from 'preact/hooks';
import { api, errorMessage } from '../../api.ts';
import { DocumentText } from '../../kit/document-text.tsx';
import '../../kit/kit.css';
import { useApi } from '../../kit/use-api.ts';
import './empresa.css';
import { MoneyRulesSection } from './money-rules.tsx';
import { Notices } from './notices.tsx';
import { uploadLogo } from './upload.ts';

function LogoSection(props: { company: Company; onSaved: (c: Company) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [localUrl, setLocalUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!file) {
      setLocalUrl(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setLocalUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const send = async (e: Event) => {
    e.preventDefault();
    if (!file) {
      setError('Escolha um arquivo de imagem.');
      return;
    }
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      props.onSaved(await uploadLogo(file));
      setFile(null);
      setMessage('Logo salvo. Ele sai nos pedidos de todos os representantes.');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!confirm('Remover o logo? Os pedidos passam a sair sem logo.')) return;
    setBusy(true);
    setError(null);
    try {
      await api.DELETE('/catalog/company/logo');
      props.onSaved({ ...props.company, logoBase64: null });
      setMessage('Logo removido.');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article aria-labelledby="logo-titulo">
      <h2 id="logo-titulo">Logo</h2>
      <div class="logo-frame">
        {props.company.logoBase64 ? (
          <img src={props.company.logoBase64} alt="Logo atual da empresa" />
        ) : (
          <p class="mg-muted">Nenhum logo cadastrado.</p>
        )}
      </div>
      <form onSubmit={send}>
        <label>
          Arquivo do logo
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-describedby="logo-ajuda"
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setError(null);
              setMessage(null);
            }}
          />
          <small id="logo-ajuda">PNG, JPEG ou WebP, até 500 KB e 4096 × 4096 pixels.</small>
        </label>
        {localUrl && (
          <figure class="logo-frame">
            <img src={localUrl} alt="Pré-visualização do novo logo" />
            <figcaption class="mg-muted">Pré-visualização: ainda não foi salvo.</figcaption>
          </figure>
        )}
        <Notices error={error} message={message} />
        <div class="mg-actions">
          <button type="submit" disabled={busy || !file} aria-busy={busy ? 'true' : undefined}>
            Enviar logo
          </button>
          {props.company.logoBase64 && (
            <button type="button" class="secondary outline" disabled={busy} onClick={() => void remove()}>
              Remover logo
            </button>
          )}
        </div>
      </form>
    </article>
  );
}

function TargetSection(props: { company: Company; onSaved: (c: Company) => void }) {
  const [value, setValue] = useState(String(props.company.metaPositivacaoDia ?? ''));
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (e: Event) => {
    e.preventDefault();
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 100_000) {
      setError('Informe um número inteiro de clientes por dia, de 0 a 100.000.');
      setMessage(null);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const saved = await api.PUT('/dashboard/manager/meta-positivacao-dia', {
        body: { metaPositivacaoDia: n },
      });
      props.onSaved({ ...props.company, metaPositivacaoDia: saved.metaPositivacaoDia });
      setMessage('Meta salva.');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article aria-labelledby="meta-titulo">
      <h2 id="meta-titulo">Meta de positivação diária</h2>
      <p class="mg-muted">Quantos clientes diferentes devem ter um pedido (não rejeitado) a cada dia.</p>
      <form onSubmit={save} noValidate>
        <label>
          Clientes por dia
          <input
            type="number"
            inputMode="numeric"
            min={0}
            max={100000}
            step={1}
            value={value}
            aria-invalid={error ? true : undefined}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </label>
        <Notices error={error} message={message} />
        <button type="submit" disabled={busy} aria-busy={busy ? 'true' : undefined}>
          Salvar meta
        </button>
      </form>
    </article>
  );
}

export default function CompanyScreen() {
  const { data, error } = useApi('/catalog/company');
  const [company, setCompany] = useState<Company | null>(null);
  const current = company ?? data;
  return (
    <section aria-labelledby="empresa-titulo">
      <h1 id="empresa-titulo">Empresa</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {!current && !error && <p aria-busy="true">Carregando…</p>}
      {current && (
        <>
          <p>
            <strong>{current.tradeName || current.name}</strong>
            {current.cnpj && (
              <span class="mg-muted">
                {' · CNPJ '}
                <DocumentText value={current.cnpj} />
              </span>
            )}
          </p>
          <LogoSection company={current} onSaved={setCompany} />
          <TargetSection company={current} onSaved={setCompany} />
          <MoneyRulesSection company={current} onSaved={setCompany} />
        </>
      )}
    </section>
  );
}
