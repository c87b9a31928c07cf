import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';

/** Spec 5: Apply is disabled while the code is empty or a code is being applied. */
export function CouponField({ onApply }: { onApply(code: string): Promise<boolean> }) {
  const [code, setCode] = useState('');
  const [loading, setLoading] = useState(false);
  const apply = async () => {
    setLoading(true);
    const ok = await onApply(code.trim());
    // Spec 8: a refused code clears the field.
    if (!ok) setCode('');
    setLoading(false);
  };
  return (
    <Group align="flex-end" gap="sm" wrap="nowrap">
      <TextInput
        label="Coupon code"
        placeholder="Enter a code"
        value={code}
        onChange={(e) => setCode(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (code.trim() && !loading) void apply();
          }
        }}
        style={{ flex: 1 }}
        autoComplete="off"
      />
      <Button variant="outline" onClick={() => void apply()} disabled={!code.trim() || loading} loading={loading}>
        Apply
      </Button>
    </Group>
  );
}
