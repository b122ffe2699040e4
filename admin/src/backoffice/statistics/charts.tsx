import { useMediaQuery, useTheme } from '@mui/material';

// Two small SVG charts of our own: a chart library would weigh more than the whole screen.

export interface Bar {
  label: string;
  value: number;
  /** The value as people read it ("12,50 €", "CHF 12.50"), shown beside the bar or on the axis. */
  text: string;
  /** The tooltip's text when it says more than `text`. */
  detail?: string;
}

const barHeight = 26;

/** The drawing's width in SVG units: narrower on a phone, so the 13-unit texts stay readable there. */
function useChartWidth(): number {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm')) ? 360 : 640;
}

/** One horizontal bar per row, longest first as given; negative values draw no bar. */
export function HorizontalBars({ bars, title }: { bars: Bar[]; title: string }) {
  const colour = useTheme().palette.primary.main;
  const width = useChartWidth();
  const labelWidth = width < 640 ? 120 : 160;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const room = width - labelWidth - 80;
  return (
    <svg
      viewBox={`0 0 ${width} ${bars.length * barHeight}`}
      width="100%"
      role="img"
      aria-label={title}
      className="chart-items"
      style={{ maxWidth: width, display: 'block' }}
    >
      <title>{title}</title>
      {bars.map((bar, index) => {
        const y = index * barHeight;
        const length = Math.max(0, (bar.value / max) * room);
        return (
          <g key={bar.label + index}>
            <title>{`${bar.label}: ${bar.detail ?? bar.text}`}</title>
            <text
              x={labelWidth - 8}
              y={y + barHeight / 2}
              textAnchor="end"
              dominantBaseline="middle"
              fontSize="13"
              fill="currentColor"
            >
              {bar.label.length > labelWidth / 7 ? `${bar.label.slice(0, Math.floor(labelWidth / 7) - 1)}…` : bar.label}
            </text>
            <rect x={labelWidth} y={y + 4} width={length} height={barHeight - 8} rx="3" fill={colour} />
            <text
              x={labelWidth + length + 6}
              y={y + barHeight / 2}
              dominantBaseline="middle"
              fontSize="13"
              fill="currentColor"
            >
              {bar.text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

const chartHeight = 220;
const axisWidth = 64;
const footer = 24;

/** Columns over time with the largest value on the axis; every column has its tooltip. */
export function Columns({ bars, title }: { bars: Bar[]; title: string }) {
  const colour = useTheme().palette.primary.main;
  const width = useChartWidth();
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const top = bars.reduce((best, bar) => (bar.value > best.value ? bar : best), bars[0]);
  const step = (width - axisWidth) / Math.max(1, bars.length);
  const plot = chartHeight - footer;
  // First, middle and last label: enough to read the time axis at any width.
  const labelled = new Set([0, Math.floor((bars.length - 1) / 2), bars.length - 1]);
  return (
    <svg
      viewBox={`0 0 ${width} ${chartHeight}`}
      width="100%"
      role="img"
      aria-label={title}
      className="chart-series"
      style={{ maxWidth: width, display: 'block' }}
    >
      <title>{title}</title>
      <line x1={axisWidth} y1={plot} x2={width} y2={plot} stroke="currentColor" strokeOpacity="0.4" />
      <line x1={axisWidth} y1={0} x2={axisWidth} y2={plot} stroke="currentColor" strokeOpacity="0.4" />
      {top && top.value > 0 && (
        <text x={axisWidth - 6} y={10} textAnchor="end" fontSize="12" fill="currentColor">
          {top.text}
        </text>
      )}
      <text x={axisWidth - 6} y={plot} textAnchor="end" fontSize="12" fill="currentColor">
        0
      </text>
      {bars.map((bar, index) => {
        const height = Math.max(0, (bar.value / max) * (plot - 4));
        const x = axisWidth + index * step;
        return (
          <g key={bar.label}>
            <title>{`${bar.label}: ${bar.detail ?? bar.text}`}</title>
            <rect x={x + step * 0.15} y={plot - height} width={Math.max(1, step * 0.7)} height={height} fill={colour} />
            {labelled.has(index) && (
              <text
                x={x + step / 2}
                y={chartHeight - 6}
                textAnchor={index === 0 ? 'start' : index === bars.length - 1 ? 'end' : 'middle'}
                fontSize="12"
                fill="currentColor"
              >
                {bar.label}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
