// Regras (managers): the discount rules in force, future and expired, the editor that creates
// one rule per chosen pauta, and the preview of what a representative gets for a product.
import { useLocation } from 'preact-iso';
import '../../kit/kit.css';
import './regras.css';
import { RuleEditor } from './rule-editor.tsx';
import { RuleList } from './rule-list.tsx';

export default function RulesScreen() {
  const { path } = useLocation();
  if (path === '/regras/nova') return <RuleEditor />;
  return <RuleList />;
}
