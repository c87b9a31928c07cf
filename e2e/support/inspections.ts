import { type Page, expect } from '@playwright/test';
import sharp from 'sharp';

/** A photo as a phone's camera would hand it over: a JPEG of one colour. */
export const jpeg = async (name: string, colour: string) => ({
  name,
  mimeType: 'image/jpeg',
  buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .jpeg()
    .toBuffer(),
});

/** Takes the eight guided photos of an inspection through each step's camera input. */
export async function takeTheEightViews(page: Page, colour: string) {
  const steps = page.getByRole('region', { name: 'The eight views' }).getByRole('listitem');
  await expect(steps).toHaveCount(8);
  for (let i = 0; i < 8; i++) {
    const step = steps.nth(i);
    const input = step.locator('input[type="file"]');
    await expect(input).toHaveAttribute('capture', 'environment');
    await input.setInputFiles(await jpeg(`view-${i}.jpg`, colour));
    await expect(step.getByRole('status')).toContainText('photo saved');
    await expect(step.getByRole('img')).toBeVisible();
  }
}
