/**
 * The full-screen gallery behind 'Show all photos': swipe, the arrow keys and Escape, pinch or the
 * zoom buttons, double-click or the wheel to zoom. Its own chunk, loaded when the renter opens it,
 * so the vehicle page's first load does not carry it.
 */
import Lightbox from 'yet-another-react-lightbox';
import Counter from 'yet-another-react-lightbox/plugins/counter';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';
import 'yet-another-react-lightbox/plugins/counter.css';

export interface GalleryPhoto {
  src: string;
  alt: string;
}

export interface PhotoGalleryProps {
  title: string;
  photos: GalleryPhoto[];
  index: number;
  onClose(): void;
}

export default function PhotoGallery({ title, photos, index, onClose }: PhotoGalleryProps) {
  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      slides={photos.map((p) => ({ src: p.src, alt: p.alt, width: 1600, height: 1000 }))}
      plugins={[Zoom, Counter]}
      zoom={{ maxZoomPixelRatio: 3, scrollToZoom: true }}
      carousel={{ finite: false, preload: 1 }}
      labels={{ Lightbox: title, Carousel: 'Photos', 'Photo gallery': title }}
    />
  );
}
