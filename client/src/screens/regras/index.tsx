// Regras (managers): the discount rules in force, future and expired, the editor that creates
// one rule per chosen pauta (and edits or duplicates one), and the preview of what a representative gets for a product.
import { useLocation } from 'preact-iso';
import '../../kit/kit.css';
import './regras.css';
import { RuleEditor } from './rule-editor.tsx';
import { RuleList } from './rule-list.tsx';

export default function RulesScreen() {
  const { path, query } = useLocation();
  // /regras/nova?copiar=<id> duplicates a rule; /regras/<id>/editar changes it in place.
  if (path === '/regras/nova') {
    const copy = Number(query.copiar);
    return <RuleEditor key={`nova-${query.copiar ?? ''}`} {...(copy > 0 ? { copyId: copy } : {})} />;
  }
  const edit = /^\/regras\/(\d+)\/editar$/.exec(path);
  if (edit) return <RuleEditor key={`editar-${edit[1]}`} editId={Number(edit[1])} />;
  return <RuleList />;
}
