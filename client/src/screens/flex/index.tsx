// Saldo flex (issue #40, docs/credit-and-flex.md): a representative's own balance and moves
// from the device; a supervisor's team's and a manager's every representative's balances from
// the API, each opening the representative's ledger (/flex/<codVendedor>), where a manager
// adjusts it.
import { useLocation } from 'preact-iso';
import '../../kit/kit.css';
import { currentUser } from '../../session/session.ts';
import './flex.css';
import { RepBalance } from './rep-balance.tsx';
import { RepLedger, TeamBalances } from './team.tsx';

export default function FlexScreen() {
  const { path } = useLocation();
  const user = currentUser.value;
  if (!user) return null;
  if (user.role === 'representative') return <RepBalance />;
  const cod = Number(path.split('/')[2]);
  return Number.isInteger(cod) && cod > 0 ? (
    <RepLedger codVendedor={cod} canAdjust={user.role === 'manager'} />
  ) : (
    <TeamBalances />
  );
}
