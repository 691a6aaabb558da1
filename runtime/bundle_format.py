"""The import path ``rulec.runtime.bundle_format`` that earlier documentation named; the
container format lives in ``rulec.runtime.bundle.format``."""

from rulec.runtime.bundle.format import FLAG_SIGNED as FLAG_SIGNED
from rulec.runtime.bundle.format import FORMAT_VERSION as FORMAT_VERSION
from rulec.runtime.bundle.format import HEADER_SIZE as HEADER_SIZE
from rulec.runtime.bundle.format import HEADER_STRUCT as HEADER_STRUCT
from rulec.runtime.bundle.format import KNOWN_FLAGS as KNOWN_FLAGS
from rulec.runtime.bundle.format import MAGIC as MAGIC
from rulec.runtime.bundle.format import SIGNATURE_BLOCK_SIZE as SIGNATURE_BLOCK_SIZE
from rulec.runtime.bundle.format import SIGNATURE_MAGIC as SIGNATURE_MAGIC
from rulec.runtime.bundle.format import SIGNATURE_STRUCT as SIGNATURE_STRUCT
from rulec.runtime.bundle.format import SIGNED_PREFIX_SIZE as SIGNED_PREFIX_SIZE
from rulec.runtime.bundle.format import BundleHeader as BundleHeader
from rulec.runtime.bundle.format import Container as Container
from rulec.runtime.bundle.format import SignatureBlock as SignatureBlock
from rulec.runtime.bundle.format import UnpackLimits as UnpackLimits
from rulec.runtime.bundle.format import check_container as check_container
from rulec.runtime.bundle.format import decode_bundle as decode_bundle
from rulec.runtime.bundle.format import encode_bundle as encode_bundle
from rulec.runtime.bundle.format import frame_payload as frame_payload
from rulec.runtime.bundle.format import frame_signed as frame_signed
from rulec.runtime.bundle.format import fsync_folder as fsync_folder
from rulec.runtime.bundle.format import pack_payload as pack_payload
from rulec.runtime.bundle.format import read_header as read_header
from rulec.runtime.bundle.format import unpack_payload as unpack_payload
from rulec.runtime.bundle.format import write_bundle_file as write_bundle_file
from rulec.runtime.bundle.format import write_file_atomically as write_file_atomically
