import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Clientes: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Clientes" />;
}
