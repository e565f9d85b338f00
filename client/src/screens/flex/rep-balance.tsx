// A representative's Saldo flex, from the device (ajustes document 'flex', synced): the
// balance, the tenant's settings in one sentence and the latest moves, offline too.
import { FLEX_SYNC_ENTRIES } from '@campo/shared';
import { formatBrl } from '@campo/shared/format';
import { useFlexBalance, useMoneyRules } from '../../data/company.ts';
import { StoreGate } from '../../kit/store-gate.tsx';
import { EntryList, rulesSentence } from './ledger.tsx';

function RepBalanceBody() {
  const flex = useFlexBalance();
  const rules = useMoneyRules();
  if (flex === undefined) return <p aria-busy="true">Abrindo o saldo…</p>;
  return (
    <>
      <p class="flex-figure">
        <span>Saldo disponível</span>
        <strong>{flex ? formatBrl(flex.saldo) : '—'}</strong>
      </p>
      <p>{rulesSentence(rules)}</p>
      {flex === null ? (
        <p class="notice">O saldo aparece aqui depois da primeira sincronização com a internet.</p>
      ) : (
        <>
          <h2>Movimentos</h2>
          {flex.lancamentos.length >= FLEX_SYNC_ENTRIES && (
            <p class="mg-muted">Os {FLEX_SYNC_ENTRIES} movimentos mais recentes.</p>
          )}
          <EntryList entries={flex.lancamentos} label="Movimentos do saldo flex" />
        </>
      )}
    </>
  );
}

export function RepBalance() {
  return (
    <section class="flex-screen" aria-labelledby="flex-titulo">
      <h1 id="flex-titulo">Saldo flex</h1>
      <StoreGate>{() => <RepBalanceBody />}</StoreGate>
    </section>
  );
}
