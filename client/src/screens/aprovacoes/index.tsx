// Aprovações (supervisors): the queue of orders awaiting approval and the review of one order.
// Supervisors work online: every figure comes from the API, which enforces that only the
// representative's own supervisor decides.
import { useLocation } from 'preact-iso';
import '../../kit/kit.css';
import './aprovacoes.css';
import { ApprovalQueue } from './queue.tsx';
import { OrderReview } from './review.tsx';

export default function ApprovalsScreen() {
  const { path } = useLocation();
  const id = Number(path.split('/')[2]);
  if (Number.isSafeInteger(id) && id > 0) return <OrderReview id={id} />;
  return <ApprovalQueue />;
}
