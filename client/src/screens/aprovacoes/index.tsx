import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Aprovações: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Aprovações" />;
}
