/**
 * Video links of the three hosts the product embeds (DESIGN.md §6 "Video"): YouTube, RuTube and
 * VK Video. The rule is the contract's, the same the server applies when a lesson is saved, so the
 * constructor previews exactly the links the server stores with a `videoId`.
 */
export { embedUrl, parseVideoLink, videoEmbedFor, type VideoLink } from '@lms/contract';
