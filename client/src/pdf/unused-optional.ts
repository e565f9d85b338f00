// jsPDF imports html2canvas, DOMPurify and canvg for its HTML and SVG rendering, which Campo
// never uses (orders are drawn with text and an image). Aliased to this empty module in
// vite.config.ts, they stay out of the build and out of what the service worker precaches.
export default {};
