import L from 'leaflet';
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

export interface MapMarker {
  key: string;
  lat: number;
  lng: number;
  /** The popup's content; a DOM node, so its link can navigate inside the app. */
  popup: () => HTMLElement;
}

/**
 * Markers in clusters: many vendors share a corner (a station, a market), and one pin each would
 * hide the others. Leaflet's own plugin, added through the map react-leaflet gives.
 */
export function ClusterLayer({ markers }: { markers: MapMarker[] }) {
  const map = useMap();
  useEffect(() => {
    const group = L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 50 });
    group.addLayers(
      markers.map((marker) => L.marker([marker.lat, marker.lng], { title: marker.key }).bindPopup(marker.popup)),
    );
    map.addLayer(group);
    if (markers.length) map.fitBounds(group.getBounds(), { padding: [30, 30], maxZoom: 16 });
    return () => {
      map.removeLayer(group);
    };
  }, [map, markers]);
  return null;
}
