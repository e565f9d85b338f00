import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Equipe: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Equipe" />;
}
