// Funil: the representative's opportunities as a kanban (/funil), a new prospect
// (/funil/nova) and one opportunity to edit or delete (/funil/<id>). All offline: reads come
// from the local store, writes go through the outbox and are pushed when there is signal.
import type { FunnelStage } from '@campo/shared';
import { useSignal } from '@preact/signals';
import { useLocation } from 'preact-iso';
import { map } from 'rxjs';
import { useDownloadState } from '../../data/download-state.ts';
import { useStoreObservable } from '../../data/hooks.ts';
import { store } from '../../data/store.ts';
import { collectionOf } from '../../db/database.ts';
import type { OpportunityDoc } from '../../db/schemas.ts';
import { InitialSyncNote } from '../../kit/store-gate.tsx';
import { Board, opportunityName } from './board.tsx';
import { STAGE_LABELS } from './format.ts';
import { LossDialog } from './loss-dialog.tsx';
import { OpportunityForm, type OpportunityValues } from './opportunity-form.tsx';
import './funil.css';

function useOpportunities(): OpportunityDoc[] | null {
  return useStoreObservable<OpportunityDoc[] | null>(
    (s) =>
      collectionOf(s.db, 'funil')
        .find()
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as OpportunityDoc))),
    null,
  );
}

function outbox() {
  const o = store.peek()?.outbox;
  if (!o) throw new Error('Os dados deste aparelho ainda estão abrindo. Tente de novo em instantes.');
  return o;
}

function BoardScreen(props: { items: OpportunityDoc[] }) {
  // "Nenhuma oportunidade" only of the cards on the phone, not while they download.
  const funnel = useDownloadState('funil');
  const losing = useSignal<OpportunityDoc | null>(null);
  const error = useSignal<string | null>(null);
  const notice = useSignal<string | null>(null);

  const move = (id: string, stage: FunnelStage) => {
    const item = props.items.find((o) => o.id === id);
    if (!item || item.estagio === stage) return;
    error.value = null;
    if (stage === 'perdido') {
      losing.value = item;
      return;
    }
    outbox()
      .moveOpportunity(id, stage)
      .then(
        () => {
          notice.value = `${opportunityName(item)} movida para ${stageName(stage)}.`;
        },
        (err: unknown) => {
          error.value = err instanceof Error ? err.message : 'Não foi possível mover a oportunidade.';
        },
      );
  };

  const lost = losing.value;
  return (
    <section class="funil">
      <div class="funil-head">
        <h1>Funil</h1>
        <a href="/funil/nova" class="link-button">
          Nova oportunidade
        </a>
      </div>
      <p class="visually-hidden" role="status">
        {notice.value}
      </p>
      {error.value && (
        <p class="field-error" role="alert">
          {error.value}
        </p>
      )}
      <InitialSyncNote collection="funil" what="as oportunidades" />
      {props.items.length === 0 && funnel?.done && (
        <p>Nenhuma oportunidade ainda. Toque em “Nova oportunidade” para registrar um prospect.</p>
      )}
      <Board items={props.items} onMove={move} />
      {lost && (
        <LossDialog
          name={opportunityName(lost)}
          onCancel={() => (losing.value = null)}
          onConfirm={async (reason) => {
            await outbox().moveOpportunity(lost.id, 'perdido', reason);
            losing.value = null;
            notice.value = `${opportunityName(lost)} marcada como perdida.`;
          }}
        />
      )}
    </section>
  );
}

function stageName(stage: FunnelStage): string {
  return STAGE_LABELS[stage];
}

async function create(values: OpportunityValues): Promise<void> {
  await outbox().createOpportunity({
    estagio: values.estagio,
    nomeProspect: values.nomeProspect,
    empresaProspect: values.empresaProspect,
    valor: values.valor,
    previsaoFechamento: values.previsaoFechamento,
    observacoes: values.observacoes,
    motivoPerda: values.motivoPerda,
  });
}

/**
 * Sends only what changed, so the server's per-field merge keeps another device's edits. A
 * refused card is saved even unchanged: saving is how the representative says "send it again"
 * (the outbox clears the refusal on every edit).
 */
async function update(item: OpportunityDoc, values: OpportunityValues): Promise<void> {
  const patch: Partial<OpportunityValues> = {};
  for (const key of Object.keys(values) as (keyof OpportunityValues)[]) {
    if (key === 'nomeProspect' && item.idCliente !== null) continue;
    if (values[key] !== item[key]) Object.assign(patch, { [key]: values[key] });
  }
  if (Object.keys(patch).length === 0 && !item.recusa) return;
  await outbox().updateOpportunity(item.id, patch);
}

export default function FunilScreen() {
  const { path } = useLocation();
  const items = useOpportunities();
  const sub = path.split('/')[2];

  if (items === null) {
    return (
      <section>
        <h1>Funil</h1>
        <p aria-busy="true">Abrindo o funil…</p>
      </section>
    );
  }
  if (sub === 'nova') {
    return (
      <section>
        <h1>Nova oportunidade</h1>
        <OpportunityForm item={null} onSave={create} />
      </section>
    );
  }
  if (sub) {
    const item = items.find((o) => o.id === decodeURIComponent(sub));
    if (!item) {
      return (
        <section>
          <h1>Oportunidade não encontrada</h1>
          <p>Ela pode ter sido excluída em outro aparelho.</p>
          <a href="/funil">Voltar ao funil</a>
        </section>
      );
    }
    return (
      <section>
        <h1>{opportunityName(item)}</h1>
        <OpportunityForm
          key={item.id}
          item={item}
          onSave={(values) => update(item, values)}
          onDelete={() => outbox().deleteOpportunity(item.id)}
        />
      </section>
    );
  }
  return <BoardScreen items={items} />;
}
