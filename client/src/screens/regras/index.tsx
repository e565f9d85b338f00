import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Regras: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Regras" />;
}
