import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { DamagePoint } from '@ampere/domain/inspections';
import classes from './inspections.module.css';

/** The drawing's size in its own units: a car seen from above, front at the top. */
const W = 100;
const H = 200;
const STEP = 0.025;

export interface DrawnMark extends DamagePoint {
  id: string;
  /** The number staff read beside it and in the list of marks. */
  label: string;
  tone?: 'out' | 'in';
}

/** The car from above: body, bonnet, windscreen, roof, rear window, wheels and mirrors. */
function CarShape({ labelled = true }: { labelled?: boolean }) {
  return (
    <g className={classes.car}>
      <rect x={8} y={24} width={10} height={30} rx={3} className={classes.wheel} />
      <rect x={82} y={24} width={10} height={30} rx={3} className={classes.wheel} />
      <rect x={8} y={146} width={10} height={30} rx={3} className={classes.wheel} />
      <rect x={82} y={146} width={10} height={30} rx={3} className={classes.wheel} />
      <rect x={14} y={4} width={72} height={192} rx={22} className={classes.body} />
      <path d="M22 64 Q50 50 78 64 L74 84 Q50 76 26 84 Z" className={classes.glass} />
      <rect x={26} y={86} width={48} height={58} rx={6} className={classes.roof} />
      <path d="M26 148 Q50 154 74 148 L77 166 Q50 174 23 166 Z" className={classes.glass} />
      <path d="M14 70 L6 66 L6 74 Z" className={classes.body} />
      <path d="M86 70 L94 66 L94 74 Z" className={classes.body} />
      {labelled && (
        <>
          <text x={50} y={16} textAnchor="middle" className={classes.drawingLabel}>
            FRONT
          </text>
          <text x={50} y={190} textAnchor="middle" className={classes.drawingLabel}>
            REAR
          </text>
        </>
      )}
    </g>
  );
}

function Marks({ marks }: { marks: readonly DrawnMark[] }) {
  return (
    <g>
      {marks.map((m) => (
        <g key={m.id} transform={`translate(${m.x * W} ${m.y * H})`}>
          <circle r={5.5} className={m.tone === 'in' ? classes.markIn : classes.markOut} />
          <text y={2.2} textAnchor="middle" className={classes.markLabel}>
            {m.label}
          </text>
        </g>
      ))}
    </g>
  );
}

/** A read-only drawing with its marks (the compare page's). */
export function CarDrawing({ marks, title }: { marks: readonly DrawnMark[]; title: string }) {
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className={classes.drawing} role="img" aria-label={title}>
      <CarShape />
      <Marks marks={marks} />
    </svg>
  );
}

/** On the drawing, to a ten-thousandth (finer than any click). */
const clamp = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 10_000) / 10_000;

/**
 * The drawing staff mark damage on: a click puts the mark where it was clicked; from the keyboard,
 * the arrow keys move a marker (Shift for bigger steps) and Enter or Space marks there.
 */
export function MarkableCarDrawing({
  marks,
  onPick,
  disabled,
}: {
  marks: readonly DrawnMark[];
  onPick: (point: DamagePoint) => void;
  disabled?: boolean;
}) {
  const [cursor, setCursor] = useState<DamagePoint>({ x: 0.5, y: 0.5 });
  const [keyboard, setKeyboard] = useState(false);

  const click = (e: MouseEvent<HTMLButtonElement>) => {
    // A click from the keyboard (Enter or Space) has no pointer position: mark at the marker.
    if (e.detail === 0) return onPick(cursor);
    const svg = e.currentTarget.querySelector('svg')!.getBoundingClientRect();
    const point = { x: clamp((e.clientX - svg.left) / svg.width), y: clamp((e.clientY - svg.top) / svg.height) };
    setCursor(point);
    onPick(point);
  };
  const key = (e: KeyboardEvent<HTMLButtonElement>) => {
    const step = e.shiftKey ? STEP * 4 : STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step / 2],
      ArrowDown: [0, step / 2],
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    setKeyboard(true);
    setCursor((c) => ({ x: clamp(c.x + move[0]), y: clamp(c.y + move[1]) }));
  };

  return (
    <>
      <div className={classes.drawingEnd}>Front</div>
      <div className={classes.drawingFrame}>
        <button
          type="button"
          className={classes.drawingButton}
          onClick={click}
          onKeyDown={key}
          onFocus={() => setKeyboard(true)}
          onBlur={() => setKeyboard(false)}
          disabled={disabled}
          aria-label={`Mark damage on the drawing of the car (front at the top). Arrow keys move the marker, now ${Math.round(cursor.x * 100)}% across and ${Math.round(cursor.y * 100)}% down; Enter marks damage there.`}
        >
          <svg viewBox={`0 0 ${W} ${H}`} className={classes.drawing} aria-hidden="true">
            <CarShape labelled={false} />
          </svg>
        </button>
        {/* The marks lie over the button, not in it: the button's name is its label alone. */}
        <svg viewBox={`0 0 ${W} ${H}`} className={classes.overlay} aria-hidden="true">
          <Marks marks={marks} />
          {keyboard && (
            <g transform={`translate(${cursor.x * W} ${cursor.y * H})`} className={classes.cursor}>
              <line x1={-7} x2={7} y1={0} y2={0} />
              <line x1={0} x2={0} y1={-7} y2={7} />
              <circle r={4} />
            </g>
          )}
        </svg>
      </div>
      <div className={classes.drawingEnd}>Rear</div>
    </>
  );
}
