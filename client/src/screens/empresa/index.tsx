import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Empresa: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Empresa" />;
}
