/** Where the app serves the generated photo of a model in a colour from a view. */
export const imageUrl = (slug: string, color: string, view: string) =>
  `/media/vehicles/${slug}/${color.toLowerCase()}/${view.toLowerCase()}.svg`;
