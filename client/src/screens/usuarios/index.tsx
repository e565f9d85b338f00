import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Usuários: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Usuários" />;
}
