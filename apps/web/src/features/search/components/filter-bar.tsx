import { Chip, Group, Text } from '@mantine/core';
import {
  colorChips,
  colorLabel,
  isLongRange,
  isLongRangeChipEnabled,
  modelChips,
  parseColor,
  baseModel,
} from '@ampere/domain/filters';

export interface FilterBarProps {
  model: string | undefined;
  color: string | undefined;
  serverModels: string[] | undefined;
  serverColors: string[] | undefined;
  onModel(model: string): void;
  onLongRange(): void;
  onColor(color: string): void;
}

/** Model chips, a Long Range chip (Model 3 and Model Y only) and colour chips; a second click clears. */
export function FilterBar({ model, color, serverModels, serverColors, onModel, onLongRange, onColor }: FilterBarProps) {
  const selectedBase = model ? baseModel(model) : null;
  const selectedColor = parseColor(color);
  return (
    <Group gap="lg" align="flex-start" wrap="wrap" role="group" aria-label="Filters">
      <div>
        <Text size="xs" fw={600} c="dark.4" mb={4} id="model-filter">
          Model
        </Text>
        <Group gap={6} role="group" aria-labelledby="model-filter">
          {modelChips(serverModels).map((m) => (
            <Chip key={m} size="sm" checked={selectedBase === m} onChange={() => onModel(m)}>
              {m}
            </Chip>
          ))}
          <Chip size="sm" checked={isLongRange(model)} disabled={!isLongRangeChipEnabled(model)} onChange={onLongRange}>
            Long Range
          </Chip>
        </Group>
      </div>
      <div>
        <Text size="xs" fw={600} c="dark.4" mb={4} id="color-filter">
          Colour
        </Text>
        <Group gap={6} role="group" aria-labelledby="color-filter">
          {colorChips(serverColors).map((c) => (
            <Chip key={c} size="sm" checked={selectedColor === c} onChange={() => onColor(c)}>
              {colorLabel(c)}
            </Chip>
          ))}
        </Group>
      </div>
    </Group>
  );
}
