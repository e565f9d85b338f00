// The day in the field of a team (GET /visits/summary): per representative, by name, route
// coverage, positivation against visits, visits without an order by reason, time in visits,
// visits without a position and far from the client. Choosing a representative lists that
// day's visits by check-in time (GET /visits), on a map too when the operator configured tiles.
// Everything the screen shows is in the URL (?data, ?equipe, ?rep), so Início's team cards
// link straight to a representative's day.
import { Fragment } from 'preact';
import { lazy, useLocation } from 'preact-iso';
import { DateField, isIsoDate } from '../../kit/date-field.tsx';
import { day as brDay, today } from '../../kit/format.ts';
import { Pager } from '../../kit/pager.tsx';
import { useRepName } from '../../kit/rep-name.ts';
import { useApi } from '../../kit/use-api.ts';
import {
  clockTime,
  distanceText,
  farThresholdText,
  lengthText,
  minutesText,
  positivationText,
  shareText,
  shiftDay,
} from '../../kit/visit-format.ts';
import { currentUser } from '../../session/session.ts';
import { VisitPhoto } from './photo.tsx';

// Leaflet only loads when a map is drawn (a tile server is configured).
const VisitMap = lazy(() => import('./visit-map.tsx'));

const SUMMARY_PAGE = 20;
const VISITS_PAGE = 50;

type Query = Record<string, string | undefined>;

/** The screen's URL with some of its parameters changed (undefined or '' drops one). */
export function visitsHref(current: Query, change: Query): string {
  const next = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...current, ...change })) if (v) next.set(k, v);
  const s = next.toString();
  return s ? `/visitas?${s}` : '/visitas';
}

function TeamFilter(props: { value: string; onChange: (cod: string) => void }) {
  const sups = useApi('/supervisores');
  return (
    <label class="visit-filter">
      Equipe
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">Todas as equipes</option>
        {(sups.data?.items ?? []).map((s) => (
          <option key={s.codSupervisor} value={String(s.codSupervisor)}>
            {s.nome || `Supervisor ${s.codSupervisor}`}
          </option>
        ))}
      </select>
    </label>
  );
}

export function DayFilters(props: { query: Query; data: string; manager: boolean }) {
  const { route } = useLocation();
  const go = (change: Query) => route(visitsHref(props.query, { ...change, pagina: undefined }));
  return (
    <div class="visit-filters">
      <label class="visit-filter" for="visitas-dia">
        Dia
        <DateField id="visitas-dia" value={props.data} onChange={(v) => isIsoDate(v) && go({ data: v })} />
      </label>
      <div class="mg-actions visit-day-steps">
        <button type="button" class="secondary outline" onClick={() => go({ data: shiftDay(props.data, -1) })}>
          Dia anterior
        </button>
        <button type="button" class="secondary outline" onClick={() => go({ data: undefined })}>
          Hoje
        </button>
        <button type="button" class="secondary outline" onClick={() => go({ data: shiftDay(props.data, 1) })}>
          Próximo dia
        </button>
      </div>
      {props.manager && (
        <TeamFilter value={props.query.equipe ?? ''} onChange={(v) => go({ equipe: v, rep: undefined })} />
      )}
    </div>
  );
}

export function DayView() {
  const { query } = useLocation();
  const user = currentUser.value;
  const manager = user?.role === 'manager';
  const data = query.data && isIsoDate(query.data) ? query.data : today();
  const page = Math.max(1, Number(query.pagina) || 1);
  const equipe = manager && Number(query.equipe) > 0 ? Number(query.equipe) : undefined;
  const rep = Number(query.rep) > 0 ? Number(query.rep) : undefined;
  const summary = useApi('/visits/summary', {
    params: { query: { data, page, pageSize: SUMMARY_PAGE, ...(equipe ? { codSupervisor: equipe } : {}) } },
  });
  const s = summary.data;
  const far = s ? farThresholdText(s.longeMetros) : '';
  const chosen = s?.items.find((r) => r.codVendedor === rep);
  const { route } = useLocation();

  return (
    <>
      <DayFilters query={query} data={data} manager={manager} />
      {summary.error && (
        <p role="alert" class="error">
          {summary.error}
        </p>
      )}
      {summary.loading && !s && <p aria-busy="true">Carregando o dia da equipe…</p>}
      {s && s.items.length === 0 && <p>Nenhum representante nesta equipe.</p>}
      {s && s.items.length > 0 && (
        <>
          <p id="visitas-dia-legenda" class="mg-muted">
            O dia {brDay(s.data)} de cada representante. Roteiro: clientes do dia visitados; positivação: clientes
            visitados com pedido; longe: check-in a mais de {lengthText(s.longeMetros)} do cliente.
          </p>
          <div class="mg-scroll">
            {/* Named by the line above its box rather than a caption: a caption is as wide as the
              table, so on a phone it would scroll away with the columns, cut off mid-sentence. */}
            <table class="visit-summary" aria-labelledby="visitas-dia-legenda">
              <thead>
                <tr>
                  <th scope="col">Representante</th>
                  <th scope="col" class="mg-num">
                    Roteiro
                  </th>
                  <th scope="col" class="mg-num">
                    Visitas
                  </th>
                  <th scope="col" class="mg-num">
                    Positivação nas visitas
                  </th>
                  <th scope="col">Sem pedido (motivo)</th>
                  <th scope="col" class="mg-num">
                    Tempo
                  </th>
                  <th scope="col" class="mg-num">
                    Sem localização
                  </th>
                  <th scope="col" class="mg-num">
                    Longe ({far})
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.items.map((r) => (
                  <tr key={r.codVendedor} aria-current={r.codVendedor === rep ? 'true' : undefined}>
                    <th scope="row">
                      <a href={visitsHref(query, { rep: String(r.codVendedor), vpagina: undefined })}>
                        {r.nome || `Vendedor ${r.codVendedor}`}
                      </a>
                    </th>
                    <td class="mg-num">{shareText(r.visitados, r.planejados)}</td>
                    <td class="mg-num">{r.visitas}</td>
                    <td class="mg-num">{positivationText(r.positivacaoVisitas, r.clientesVisitados)}</td>
                    <td>
                      {r.semPedidoPorMotivo.length === 0
                        ? '—'
                        : r.semPedidoPorMotivo.map((m, i) => (
                            // The separator stays outside the unbreakable "reason: n", so the
                            // cell wraps between reasons instead of widening the table.
                            <Fragment key={m.idMotivo ?? 0}>
                              {i > 0 && '; '}
                              <span class="visit-reason-count">
                                {m.motivo ?? 'sem motivo'}: {m.visitas}
                              </span>
                            </Fragment>
                          ))}
                    </td>
                    <td class="mg-num">{minutesText(r.minutosEmVisita)}</td>
                    <td class="mg-num">{r.semPosicao}</td>
                    <td class="mg-num">{r.longe}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {s && (
        <Pager
          page={s.page}
          pageSize={s.pageSize}
          total={s.total}
          onPage={(p) => route(visitsHref(query, { pagina: String(p) }))}
        />
      )}
      {s && rep !== undefined && (
        <RepVisits
          codVendedor={rep}
          nome={chosen?.nome ?? null}
          data={s.data}
          longeMetros={s.longeMetros}
          tileUrl={s.tileUrl}
          tileAttribution={s.tileAttribution}
          canOpenOrders={user?.role === 'supervisor'}
        />
      )}
      {s && rep === undefined && s.items.length > 0 && (
        <p class="mg-muted">Escolha um representante para ver as visitas do dia em ordem de horário.</p>
      )}
    </>
  );
}

function RepVisits(props: {
  codVendedor: number;
  nome: string | null;
  data: string;
  longeMetros: number;
  tileUrl: string | null;
  tileAttribution: string | null;
  canOpenOrders: boolean;
}) {
  const { query, route } = useLocation();
  const page = Math.max(1, Number(query.vpagina) || 1);
  const onlyFar = query.longe === '1';
  const visits = useApi('/visits', {
    params: {
      query: {
        data: props.data,
        codVendedor: props.codVendedor,
        page,
        pageSize: VISITS_PAGE,
        ...(onlyFar ? { alemMetros: props.longeMetros } : {}),
      },
    },
  });
  // A representative on another page of the summary is still named, from the directory.
  const repName = useRepName();
  // The route gives the clients' known positions, for the map's client markers, and which
  // clients had an order that day (linked to a visit or not), for the visits' cards.
  const routeDay = useApi('/visits/route', {
    params: { query: { data: props.data, codVendedor: props.codVendedor } },
  });
  const nome = props.nome || repName(props.codVendedor);
  const v = visits.data;
  const clients = routeDay.data ? [...routeDay.data.clientes, ...routeDay.data.extras] : [];
  const located = (v?.items ?? []).some((x) => x.posicao) || clients.some((c) => c.posicao);
  // A visit closed "sem pedido" whose client ordered that day anyway (after the check-out, or
  // from the ERP) counts in "Positivação nas visitas": the card says why.
  const orderedThatDay = new Set(clients.filter((c) => c.estado === 'visitado_com_pedido').map((c) => c.idCliente));
  return (
    <section class="rep-visits" aria-labelledby="visitas-rep-titulo">
      <h2 id="visitas-rep-titulo">
        Visitas de {nome} em {brDay(props.data)}
      </h2>
      <label class="visit-only-far">
        <input
          type="checkbox"
          checked={onlyFar}
          onChange={(e) =>
            route(visitsHref(query, { longe: e.currentTarget.checked ? '1' : undefined, vpagina: undefined }))
          }
        />
        Só as visitas longe do cliente ({farThresholdText(props.longeMetros)})
      </label>
      {visits.error && (
        <p role="alert" class="error">
          {visits.error}
        </p>
      )}
      {visits.loading && !v && <p aria-busy="true">Carregando as visitas…</p>}
      {v && v.items.length === 0 && (
        <p>{onlyFar ? 'Nenhuma visita longe do cliente neste dia.' : 'Nenhuma visita neste dia.'}</p>
      )}
      {v && v.items.length > 0 && props.tileUrl && located && (
        <VisitMap
          tileUrl={props.tileUrl}
          attribution={props.tileAttribution}
          visits={v.items}
          clients={clients}
          label={`Mapa das visitas de ${nome} em ${brDay(props.data)}`}
        />
      )}
      {v && v.items.length > 0 && (
        <ol class="mg-list visit-list" aria-label={`Visitas de ${nome}, por horário`}>
          {v.items.map((x) => {
            const isFar = x.distanciaMetros !== null && x.distanciaMetros > props.longeMetros;
            const cliente = x.nomeCliente ?? `Cliente ${x.idCliente}`;
            return (
              <li key={x.id}>
                <article class="mg-card visit-card">
                  <div class="mg-row">
                    <strong>{cliente}</strong>
                    <span>
                      {clockTime(x.entradaEm)}
                      {x.saidaEm ? ` – ${clockTime(x.saidaEm)}` : ' – em visita'}
                      {x.minutos !== null && ` · ${minutesText(x.minutos)}`}
                    </span>
                  </div>
                  <div class="mg-row">
                    <span>
                      {x.estado === 'com_pedido' && (
                        <>
                          <span class="mg-chip ok">Com pedido</span>{' '}
                          {x.idPedido !== null &&
                            (props.canOpenOrders ? (
                              <a href={`/aprovacoes/${x.idPedido}`}>Pedido nº {x.numPedSar ?? x.idPedido}</a>
                            ) : (
                              <span>Pedido nº {x.numPedSar ?? x.idPedido}</span>
                            ))}
                        </>
                      )}
                      {x.estado === 'sem_pedido' && (
                        <>
                          <span class="mg-chip bad">Sem pedido</span> {x.motivo ?? 'sem motivo'}
                          {orderedThatDay.has(x.idCliente) && (
                            <span class="mg-muted">
                              {' '}
                              · pedido feito fora da visita, no mesmo dia (conta na positivação)
                            </span>
                          )}
                        </>
                      )}
                      {x.estado === 'aberta' && <span class="mg-chip warn">Em visita</span>}
                      {!x.noRoteiro && <span class="mg-muted"> · fora do roteiro</span>}
                    </span>
                    <span>
                      {x.posicao === null ? (
                        <span class="mg-chip warn">Sem localização</span>
                      ) : x.distanciaMetros === null ? (
                        <span class="mg-muted">Posição do cliente desconhecida</span>
                      ) : (
                        <>
                          {distanceText(x.distanciaMetros)}
                          {isFar && (
                            <>
                              {' '}
                              <span class="mg-chip bad">Longe</span>
                            </>
                          )}
                        </>
                      )}
                    </span>
                  </div>
                  {x.observacao && <p class="visit-note">“{x.observacao}”</p>}
                  {x.foto && <VisitPhoto id={x.id} cliente={cliente} />}
                </article>
              </li>
            );
          })}
        </ol>
      )}
      {v && (
        <Pager
          page={v.page}
          pageSize={v.pageSize}
          total={v.total}
          onPage={(p) => route(visitsHref(query, { vpagina: String(p) }))}
        />
      )}
    </section>
  );
}
