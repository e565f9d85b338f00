// "Roteiro de hoje" on the representative's Início (docs/visits.md): the clients due today, in
// the representative's order, each with its state, computed on the phone from the store
// (data/route.ts), so it moves as visits and orders are written offline. Buttons move a client
// up or down (no drag: a finger at 360 px and a screen reader both use them); the order is kept
// on the phone and sent to the server when there is signal.

import type { RouteState } from '@campo/shared';
import { businessDate } from '@campo/shared/dates';
import { pluralWord } from '@campo/shared/format';
import { useEffect, useState } from 'preact/hooks';
import { map, type Observable } from 'rxjs';
import { useDownloadState } from '../../data/download-state.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import { type LocalRoute, moveInRoute, type RouteEntry, routeOfDay } from '../../data/route.ts';
import { readRouteOrder, refreshVisitReasons, saveRouteOrder, sendRouteOrder } from '../../data/visits.ts';
import { collectionOf } from '../../db/database.ts';
import type { ClientDoc, OrderDoc, VisitDoc } from '../../db/schemas.ts';
import './route-card.css';

const STATE_LABEL: Record<RouteState, string> = {
  a_visitar: 'A visitar',
  em_visita: 'Em visita',
  visitado_com_pedido: 'Visitado com pedido',
  visitado_sem_pedido: 'Visitado sem pedido',
  nao_visitado: 'Não visitado',
};

function docs$<T>(find: { $: Observable<{ toJSON(): unknown }[]> }) {
  return find.$.pipe(map((list) => list.map((d) => d.toJSON() as T)));
}

/** "Roteiro de hoje: 5 de 8 visitados, 3 com pedido". */
export function routeSummary(r: LocalRoute['resumo']): string {
  const extras = r.extras > 0 ? `; ${r.extras} fora do roteiro` : '';
  // "1 de 2 visitados": the noun agrees with the whole ("0 de 1 visitado").
  const visited = pluralWord(r.planejados, 'visitado', 'visitados');
  return `Roteiro de hoje: ${r.visitados} de ${r.planejados} ${visited}, ${r.comPedido} com pedido${extras}`;
}

function Entry(props: { entry: RouteEntry; position?: { index: number; count: number; move: (by: -1 | 1) => void } }) {
  const { entry, position } = props;
  return (
    <li class="route-entry">
      <span>
        <a href={`/clientes/${entry.idCliente}`}>{entry.nome}</a>
        {entry.cidade && <small class="muted"> · {entry.cidade}</small>}
      </span>
      <span class={`route-state route-state-${entry.estado}`}>{STATE_LABEL[entry.estado]}</span>
      {position && (
        <span class="route-move">
          <button
            type="button"
            class="secondary"
            aria-label={`Subir ${entry.nome}`}
            disabled={position.index === 0}
            onClick={() => position.move(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            class="secondary"
            aria-label={`Descer ${entry.nome}`}
            disabled={position.index === position.count - 1}
            onClick={() => position.move(1)}
          >
            ↓
          </button>
        </span>
      )}
    </li>
  );
}

export function RouteCard() {
  // null until the store answers: an empty route is only said of the portfolio as it is.
  const clients = useStoreObservable<ClientDoc[] | null>(
    (s) => docs$<ClientDoc>(collectionOf(s.db, 'clientes').find()),
    null,
  );
  const visits = useStoreObservable<VisitDoc[]>(
    (s) => (s.db.collections.visitas ? docs$<VisitDoc>(s.db.collections.visitas.find()) : null),
    [],
  );
  const orders = useStoreObservable<OrderDoc[]>((s) => docs$<OrderDoc>(collectionOf(s.db, 'pedidos').find()), []);
  // The route follows the portfolio as it arrives; until it is on the phone, "no client due
  // today" would be false.
  const portfolio = useDownloadState('clientes');
  const downloading = portfolio !== null && !portfolio.done;
  const [order, setOrder] = useState<number[]>(() => readRouteOrder());
  useEffect(() => {
    void sendRouteOrder();
    void refreshVisitReasons();
  }, []);

  const route = routeOfDay({ day: businessDate(), clients: clients ?? [], visits, orders, order });
  const ids = route.clientes.map((c) => c.idCliente);
  const move = (idCliente: number, by: -1 | 1) => {
    const next = moveInRoute(ids, idCliente, by);
    setOrder(next);
    void saveRouteOrder(next);
  };

  return (
    <article aria-labelledby="roteiro-titulo" class="route-card">
      <h2 id="roteiro-titulo">Roteiro de hoje</h2>
      {downloading && (
        <p class="notice" aria-live="polite">
          Baixando os clientes do roteiro…
        </p>
      )}
      {route.clientes.length === 0 && route.extras.length === 0 ? (
        downloading || portfolio === null || clients === null ? null : (
          <p>Nenhum cliente no roteiro de hoje.</p>
        )
      ) : (
        <>
          <p>
            <strong>{routeSummary(route.resumo)}</strong>
          </p>
          {route.clientes.length > 0 && (
            <ol class="plain-list route-list">
              {route.clientes.map((entry, index) => (
                <Entry
                  key={entry.idCliente}
                  entry={entry}
                  position={{ index, count: route.clientes.length, move: (by) => move(entry.idCliente, by) }}
                />
              ))}
            </ol>
          )}
          {route.extras.length > 0 && (
            <>
              <h3>Visitados fora do roteiro</h3>
              <ul class="plain-list route-list">
                {route.extras.map((entry) => (
                  <Entry key={entry.idCliente} entry={entry} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </article>
  );
}
