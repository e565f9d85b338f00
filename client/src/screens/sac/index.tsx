// SAC. A representative's tickets live on the device (list /sac, new /sac/novo, thread
// /sac/<id>) and work offline through the outbox. Managers get the company's inbox on the
// same route (screens/sac/empresa/), which works online.
import { lazy, useLocation } from 'preact-iso';
import { currentRole } from '../../session/session.ts';
import { useTickets } from './data.ts';
import { NewTicket } from './new-ticket.tsx';
import { Thread } from './thread.tsx';
import { TicketList } from './ticket-list.tsx';
import './sac.css';

// Managers get the company's inbox (screens/sac/empresa/), loaded only for them.
const CompanySac = lazy(() => import('./empresa/index.tsx'));

function RepresentativeSac() {
  const { path } = useLocation();
  const tickets = useTickets();
  const sub = path.split('/')[2];

  if (sub === 'novo') return <NewTicket />;
  if (tickets === null) {
    return (
      <section>
        <h1>SAC</h1>
        <p aria-busy="true">Abrindo os chamados…</p>
      </section>
    );
  }
  if (sub) {
    const ticket = tickets.find((t) => t.id === decodeURIComponent(sub));
    if (!ticket) {
      return (
        <section>
          <h1>Chamado não encontrado</h1>
          <a href="/sac">Voltar aos chamados</a>
        </section>
      );
    }
    // A ticket the server could not open is corrected in the new-ticket form.
    if (path.split('/')[3] === 'corrigir' && ticket.idChamado === null && ticket.recusa) {
      return <NewTicket key={`fix-${ticket.id}`} fixing={ticket} />;
    }
    return <Thread key={ticket.id} ticket={ticket} />;
  }
  return <TicketList tickets={tickets} />;
}

export default function SacScreen() {
  if (currentRole.value !== 'representative') return <CompanySac />;
  return <RepresentativeSac />;
}
