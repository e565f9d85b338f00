// The cart's client search: the portfolio on this device, a blocked client shown with its
// reason and not offered.
import { clientDisplayName } from '@campo/shared/format';
import { useState } from 'preact/hooks';
import type { ClientDoc } from '../../db/schemas.ts';
import { DocumentText } from '../../kit/document-text.tsx';
import { clientBlockReason } from './cart-model.ts';
import { useSearch } from './data.ts';

export function ClientPicker(props: { onPick: (c: ClientDoc) => void }) {
  const [text, setText] = useState('');
  const found = useSearch('clientes', text);
  return (
    <section aria-labelledby="cart-client-title">
      <h2 id="cart-client-title">Cliente</h2>
      <label>
        Buscar cliente
        <input
          type="search"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          placeholder="Nome, CNPJ/CPF ou cidade"
          autocomplete="off"
        />
      </label>
      {text.trim() && found.length === 0 ? <p>Nenhum cliente da sua carteira encontrado neste aparelho.</p> : null}
      <ul class="pick-list">
        {found.map((c) => {
          const blocked = clientBlockReason(c);
          const reasonId = `cliente-${c.id}-motivo`;
          return (
            <li key={c.id}>
              <button
                type="button"
                class="outline"
                disabled={blocked !== null}
                aria-describedby={blocked ? reasonId : undefined}
                onClick={() => props.onPick(c)}
              >
                {clientDisplayName(c)}
                <small>
                  {c.name !== clientDisplayName(c) ? `${c.name} · ` : ''}
                  <DocumentText value={c.document} />
                  {c.city ? ` · ${c.city}` : ''}
                </small>
              </button>
              {blocked ? (
                <small id={reasonId} class="pick-reason">
                  {blocked}
                </small>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
