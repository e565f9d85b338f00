// The day's visits on a map, only when the operator configured a tile server (MAP_TILE_URL,
// given to the app as the summary's tileUrl). Leaflet and its stylesheet load with this module,
// which the Visitas screen imports on demand: no other screen, and no representative, pays for
// them. Markers are vector circles (no marker images to bundle or to allow in the CSP): one per
// visit, coloured by its result, and one per client whose position is known.
import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useRef } from 'preact/hooks';
import { clockTime, distanceText } from '../../kit/visit-format.ts';

export interface MapVisit {
  id: string;
  nomeCliente: string | null;
  entradaEm: string;
  estado: 'aberta' | 'com_pedido' | 'sem_pedido';
  posicao: { latitude: number; longitude: number } | null;
  distanciaMetros: number | null;
}

export interface MapClient {
  idCliente: number;
  nome: string | null;
  posicao: { latitude: number; longitude: number } | null;
}

const COLOURS = { com_pedido: '#1f7a4d', sem_pedido: '#b3261e', aberta: '#8a5a00', cliente: '#1d4f91' } as const;
const ATTRIBUTION = 'Mapa: servidor de mapas configurado pela empresa';

/** Leaflet writes the attribution as HTML; the operator's credit is plain text, shown as typed. */
export function attributionHtml(text: string | null): string {
  return (text ?? ATTRIBUTION).replace(
    /[<>&"']/g,
    (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );
}

export default function VisitMap(props: {
  tileUrl: string;
  /** The tile server's credit (MAP_TILE_ATTRIBUTION); null: a generic one. */
  attribution: string | null;
  visits: MapVisit[];
  clients: MapClient[];
  label: string;
}) {
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const map = L.map(el, { scrollWheelZoom: false });
    L.tileLayer(props.tileUrl, { maxZoom: 19, attribution: attributionHtml(props.attribution) }).addTo(map);
    const points: L.LatLngExpression[] = [];
    for (const c of props.clients) {
      if (!c.posicao) continue;
      const at: L.LatLngExpression = [c.posicao.latitude, c.posicao.longitude];
      points.push(at);
      L.circleMarker(at, { radius: 9, color: COLOURS.cliente, weight: 2, fillOpacity: 0.1 })
        .bindTooltip(`Cliente: ${c.nome ?? c.idCliente}`)
        .addTo(map);
    }
    for (const v of props.visits) {
      if (!v.posicao) continue;
      const at: L.LatLngExpression = [v.posicao.latitude, v.posicao.longitude];
      points.push(at);
      const far = v.distanciaMetros === null ? '' : ` · ${distanceText(v.distanciaMetros)}`;
      L.circleMarker(at, { radius: 6, color: COLOURS[v.estado], weight: 2, fillOpacity: 0.8 })
        .bindTooltip(`${clockTime(v.entradaEm)} ${v.nomeCliente ?? ''}${far}`)
        .addTo(map);
    }
    if (points.length > 0) map.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 16 });
    return () => {
      map.remove();
    };
  }, [props.tileUrl, props.attribution, props.visits, props.clients]);
  return <section ref={box} class="visit-map" data-crop aria-label={props.label} />;
}
