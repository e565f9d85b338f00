// The kanban: one column per stage. A card moves by dragging it (mouse: HTML5 drag and drop;
// touch and pen: the grip, with pointer events, since mobile browsers do not all start an
// HTML5 drag from a finger) or by its "Mover para" list, which also serves keyboards and
// screen readers.
import { FUNNEL_STAGES, type FunnelStage } from '@campo/shared';
import { sumMoney } from '@campo/shared/money';
import { useSignal } from '@preact/signals';
import type { OpportunityDoc } from '../../db/schemas.ts';
import { formatDay, formatMoney, STAGE_LABELS } from './format.ts';
import { RefusalNotice } from './refusal.tsx';

export function opportunityName(o: Pick<OpportunityDoc, 'nomeProspect' | 'nomeCliente'>): string {
  return o.nomeProspect ?? o.nomeCliente ?? 'Oportunidade sem nome';
}

const DRAG_TYPE = 'text/plain';

interface BoardProps {
  items: OpportunityDoc[];
  onMove: (id: string, stage: FunnelStage) => void;
}

export function Board(props: BoardProps) {
  const over = useSignal<FunnelStage | null>(null);
  const byStage = (stage: FunnelStage) =>
    props.items
      .filter((o) => o.estagio === stage)
      .sort((a, b) => (a.atualizadoEm < b.atualizadoEm ? 1 : a.atualizadoEm > b.atualizadoEm ? -1 : 0));

  return (
    <div class="kanban" data-scroll-x>
      {FUNNEL_STAGES.map((stage) => {
        const cards = byStage(stage);
        const total = sumMoney(cards.map((o) => o.valor ?? 0));
        return (
          <section
            key={stage}
            class={`kanban-col${over.value === stage ? ' drop-target' : ''}`}
            data-stage={stage}
            aria-labelledby={`coluna-${stage}`}
            onDragOver={(e) => {
              if (!e.dataTransfer?.types.includes(DRAG_TYPE)) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
              over.value = stage;
            }}
            onDragLeave={(e) => {
              const next = e.relatedTarget as Node | null;
              if (!next || !e.currentTarget.contains(next)) over.value = null;
            }}
            onDrop={(e) => {
              e.preventDefault();
              over.value = null;
              const id = e.dataTransfer?.getData(DRAG_TYPE);
              if (id) props.onMove(id, stage);
            }}
          >
            <h2 id={`coluna-${stage}`}>
              {STAGE_LABELS[stage]} <small>({cards.length})</small>
            </h2>
            {total > 0 && <p class="kanban-total">{formatMoney(total)}</p>}
            {cards.length === 0 ? (
              <p class="kanban-empty">Nenhuma oportunidade.</p>
            ) : (
              <ul>
                {cards.map((o) => (
                  <li key={o.id}>
                    <Card item={o} onMove={props.onMove} onHover={(s) => (over.value = s)} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

function stageUnder(x: number, y: number): FunnelStage | null {
  const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-stage]');
  const stage = el?.dataset.stage;
  return FUNNEL_STAGES.find((s) => s === stage) ?? null;
}

function Card(props: {
  item: OpportunityDoc;
  onMove: (id: string, stage: FunnelStage) => void;
  onHover: (stage: FunnelStage | null) => void;
}) {
  const o = props.item;
  const name = opportunityName(o);
  const titleId = `op-${o.id}`;

  // Touch fallback: the card follows the finger (transform set through the CSSOM, which the
  // CSP allows, unlike a style attribute) and lands on the column under it.
  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType === 'mouse') return;
    const handle = e.currentTarget as HTMLElement;
    const card = handle.closest<HTMLElement>('.opp-card');
    if (!card) return;
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const start = { x: e.clientX, y: e.clientY };
    card.classList.add('dragging');
    const move = (ev: PointerEvent) => {
      card.style.transform = `translate(${ev.clientX - start.x}px, ${ev.clientY - start.y}px)`;
      props.onHover(stageUnder(ev.clientX, ev.clientY));
    };
    const end = (ev: PointerEvent) => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
      card.classList.remove('dragging');
      card.style.transform = '';
      props.onHover(null);
      const stage = ev.type === 'pointerup' ? stageUnder(ev.clientX, ev.clientY) : null;
      if (stage && stage !== o.estagio) props.onMove(o.id, stage);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  };

  return (
    <article
      class={o.recusa ? 'opp-card refused' : 'opp-card'}
      aria-labelledby={titleId}
      draggable
      onDragStart={(e) => {
        e.dataTransfer?.setData(DRAG_TYPE, o.id);
        if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
      }}
    >
      <header>
        <span class="drag-handle" aria-hidden="true" title="Arraste para outra coluna" onPointerDown={onPointerDown}>
          ⠿
        </span>
        <h3 id={titleId}>
          <a href={`/funil/${o.id}`}>{name}</a>
        </h3>
      </header>
      {o.empresaProspect && <p class="opp-company">{o.empresaProspect}</p>}
      <p class="opp-meta">
        {o.valor !== null && <span>{formatMoney(o.valor)}</span>}
        {o.previsaoFechamento && <span>Previsão: {formatDay(o.previsaoFechamento)}</span>}
      </p>
      {o.estagio === 'perdido' && o.motivoPerda && <p class="opp-reason">Motivo: {o.motivoPerda}</p>}
      <RefusalNotice item={o} />
      <label class="opp-move">
        Mover para
        <select
          value=""
          onChange={(e) => {
            const stage = FUNNEL_STAGES.find((s) => s === e.currentTarget.value);
            e.currentTarget.value = '';
            if (stage) props.onMove(o.id, stage);
          }}
        >
          <option value="">Escolha a etapa</option>
          {FUNNEL_STAGES.filter((s) => s !== o.estagio).map((s) => (
            <option key={s} value={s}>
              {STAGE_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
    </article>
  );
}
