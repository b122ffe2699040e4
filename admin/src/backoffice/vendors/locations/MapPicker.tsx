import type L from 'leaflet';
import { MapContainer, Marker, useMapEvents } from 'react-leaflet';
import { Tiles } from '../../map/Tiles.tsx';
import { Zoom } from '../../map/Zoom.tsx';

// Loaded only when a location is edited: leaflet is far too heavy for the first screen.

export interface Position {
  lat: number;
  lng: number;
}

const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

function ClickToPlace({ onChange }: { onChange: (position: Position) => void }) {
  useMapEvents({ click: (event) => onChange({ lat: rounded(event.latlng.lat), lng: rounded(event.latlng.lng) }) });
  return null;
}

/** A map with one marker: drag it, or click the map, to set the position. */
export default function MapPicker({
  position,
  onChange,
}: {
  position: Position;
  onChange: (position: Position) => void;
}) {
  return (
    <MapContainer
      id="location-map"
      center={position}
      zoom={16}
      style={{ height: 280, width: '100%' }}
      scrollWheelZoom={false}
      zoomControl={false}
    >
      <Tiles />
      <Zoom />
      <ClickToPlace onChange={onChange} />
      <Marker
        position={position}
        draggable
        eventHandlers={{
          dragend: (event) => {
            const { lat, lng } = (event.target as L.Marker).getLatLng();
            onChange({ lat: rounded(lat), lng: rounded(lng) });
          },
        }}
      />
    </MapContainer>
  );
}
