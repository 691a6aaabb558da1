/*
 * rulec wire protocol, firmware side: CRC-32C, canonical COBS, frames, a streaming
 * decoder and the payload codecs.  See rulec_proto.h and docs/protocol.md.
 */
#include "rulec_proto.h"

#include <string.h>

/* Compile-time checks: 8-byte IEEE double, as the wire format needs. */
typedef char rulec_proto_double_is_64_bit[(sizeof(double) == 8) ? 1 : -1];
typedef char rulec_proto_decoder_fits[(RULEC_MAX_ENCODED <= 0xFFFF) ? 1 : -1];

/* --- little-endian helpers ---------------------------------------------------------- */

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void put_u64(uint8_t *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

static uint16_t get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static uint64_t get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | ((uint64_t)get_u32(p + 4) << 32);
}

/* Doubles travel as their IEEE-754 bit pattern: NaN payloads and -0.0 survive. */
static void put_f64(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put_u64(p, u);
}

static double get_f64(const uint8_t *p)
{
    uint64_t u = get_u64(p);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* --- CRC-32C -------------------------------------------------------------------------- */

#ifdef RULEC_PROTO_CRC_BITWISE

uint32_t rulec_crc32c(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = (const uint8_t *)data;
    int k;
    if (p == NULL)
        return crc;
    crc = ~crc;
    while (len--) {
        crc ^= *p++;
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return ~crc;
}

#else

/* crc_table[0][b]: byte b into a zero register; crc_table[k][b]: followed by k zero
 * bytes (slicing-by-4).  Generated from the reflected polynomial 0x82F63B78. */
static const uint32_t crc_table[4][256] = {
    {
        0x00000000u, 0xf26b8303u, 0xe13b70f7u, 0x1350f3f4u, 0xc79a971fu, 0x35f1141cu,
        0x26a1e7e8u, 0xd4ca64ebu, 0x8ad958cfu, 0x78b2dbccu, 0x6be22838u, 0x9989ab3bu,
        0x4d43cfd0u, 0xbf284cd3u, 0xac78bf27u, 0x5e133c24u, 0x105ec76fu, 0xe235446cu,
        0xf165b798u, 0x030e349bu, 0xd7c45070u, 0x25afd373u, 0x36ff2087u, 0xc494a384u,
        0x9a879fa0u, 0x68ec1ca3u, 0x7bbcef57u, 0x89d76c54u, 0x5d1d08bfu, 0xaf768bbcu,
        0xbc267848u, 0x4e4dfb4bu, 0x20bd8edeu, 0xd2d60dddu, 0xc186fe29u, 0x33ed7d2au,
        0xe72719c1u, 0x154c9ac2u, 0x061c6936u, 0xf477ea35u, 0xaa64d611u, 0x580f5512u,
        0x4b5fa6e6u, 0xb93425e5u, 0x6dfe410eu, 0x9f95c20du, 0x8cc531f9u, 0x7eaeb2fau,
        0x30e349b1u, 0xc288cab2u, 0xd1d83946u, 0x23b3ba45u, 0xf779deaeu, 0x05125dadu,
        0x1642ae59u, 0xe4292d5au, 0xba3a117eu, 0x4851927du, 0x5b016189u, 0xa96ae28au,
        0x7da08661u, 0x8fcb0562u, 0x9c9bf696u, 0x6ef07595u, 0x417b1dbcu, 0xb3109ebfu,
        0xa0406d4bu, 0x522bee48u, 0x86e18aa3u, 0x748a09a0u, 0x67dafa54u, 0x95b17957u,
        0xcba24573u, 0x39c9c670u, 0x2a993584u, 0xd8f2b687u, 0x0c38d26cu, 0xfe53516fu,
        0xed03a29bu, 0x1f682198u, 0x5125dad3u, 0xa34e59d0u, 0xb01eaa24u, 0x42752927u,
        0x96bf4dccu, 0x64d4cecfu, 0x77843d3bu, 0x85efbe38u, 0xdbfc821cu, 0x2997011fu,
        0x3ac7f2ebu, 0xc8ac71e8u, 0x1c661503u, 0xee0d9600u, 0xfd5d65f4u, 0x0f36e6f7u,
        0x61c69362u, 0x93ad1061u, 0x80fde395u, 0x72966096u, 0xa65c047du, 0x5437877eu,
        0x4767748au, 0xb50cf789u, 0xeb1fcbadu, 0x197448aeu, 0x0a24bb5au, 0xf84f3859u,
        0x2c855cb2u, 0xdeeedfb1u, 0xcdbe2c45u, 0x3fd5af46u, 0x7198540du, 0x83f3d70eu,
        0x90a324fau, 0x62c8a7f9u, 0xb602c312u, 0x44694011u, 0x5739b3e5u, 0xa55230e6u,
        0xfb410cc2u, 0x092a8fc1u, 0x1a7a7c35u, 0xe811ff36u, 0x3cdb9bddu, 0xceb018deu,
        0xdde0eb2au, 0x2f8b6829u, 0x82f63b78u, 0x709db87bu, 0x63cd4b8fu, 0x91a6c88cu,
        0x456cac67u, 0xb7072f64u, 0xa457dc90u, 0x563c5f93u, 0x082f63b7u, 0xfa44e0b4u,
        0xe9141340u, 0x1b7f9043u, 0xcfb5f4a8u, 0x3dde77abu, 0x2e8e845fu, 0xdce5075cu,
        0x92a8fc17u, 0x60c37f14u, 0x73938ce0u, 0x81f80fe3u, 0x55326b08u, 0xa759e80bu,
        0xb4091bffu, 0x466298fcu, 0x1871a4d8u, 0xea1a27dbu, 0xf94ad42fu, 0x0b21572cu,
        0xdfeb33c7u, 0x2d80b0c4u, 0x3ed04330u, 0xccbbc033u, 0xa24bb5a6u, 0x502036a5u,
        0x4370c551u, 0xb11b4652u, 0x65d122b9u, 0x97baa1bau, 0x84ea524eu, 0x7681d14du,
        0x2892ed69u, 0xdaf96e6au, 0xc9a99d9eu, 0x3bc21e9du, 0xef087a76u, 0x1d63f975u,
        0x0e330a81u, 0xfc588982u, 0xb21572c9u, 0x407ef1cau, 0x532e023eu, 0xa145813du,
        0x758fe5d6u, 0x87e466d5u, 0x94b49521u, 0x66df1622u, 0x38cc2a06u, 0xcaa7a905u,
        0xd9f75af1u, 0x2b9cd9f2u, 0xff56bd19u, 0x0d3d3e1au, 0x1e6dcdeeu, 0xec064eedu,
        0xc38d26c4u, 0x31e6a5c7u, 0x22b65633u, 0xd0ddd530u, 0x0417b1dbu, 0xf67c32d8u,
        0xe52cc12cu, 0x1747422fu, 0x49547e0bu, 0xbb3ffd08u, 0xa86f0efcu, 0x5a048dffu,
        0x8ecee914u, 0x7ca56a17u, 0x6ff599e3u, 0x9d9e1ae0u, 0xd3d3e1abu, 0x21b862a8u,
        0x32e8915cu, 0xc083125fu, 0x144976b4u, 0xe622f5b7u, 0xf5720643u, 0x07198540u,
        0x590ab964u, 0xab613a67u, 0xb831c993u, 0x4a5a4a90u, 0x9e902e7bu, 0x6cfbad78u,
        0x7fab5e8cu, 0x8dc0dd8fu, 0xe330a81au, 0x115b2b19u, 0x020bd8edu, 0xf0605beeu,
        0x24aa3f05u, 0xd6c1bc06u, 0xc5914ff2u, 0x37faccf1u, 0x69e9f0d5u, 0x9b8273d6u,
        0x88d28022u, 0x7ab90321u, 0xae7367cau, 0x5c18e4c9u, 0x4f48173du, 0xbd23943eu,
        0xf36e6f75u, 0x0105ec76u, 0x12551f82u, 0xe03e9c81u, 0x34f4f86au, 0xc69f7b69u,
        0xd5cf889du, 0x27a40b9eu, 0x79b737bau, 0x8bdcb4b9u, 0x988c474du, 0x6ae7c44eu,
        0xbe2da0a5u, 0x4c4623a6u, 0x5f16d052u, 0xad7d5351u,
    },
    {
        0x00000000u, 0x13a29877u, 0x274530eeu, 0x34e7a899u, 0x4e8a61dcu, 0x5d28f9abu,
        0x69cf5132u, 0x7a6dc945u, 0x9d14c3b8u, 0x8eb65bcfu, 0xba51f356u, 0xa9f36b21u,
        0xd39ea264u, 0xc03c3a13u, 0xf4db928au, 0xe7790afdu, 0x3fc5f181u, 0x2c6769f6u,
        0x1880c16fu, 0x0b225918u, 0x714f905du, 0x62ed082au, 0x560aa0b3u, 0x45a838c4u,
        0xa2d13239u, 0xb173aa4eu, 0x859402d7u, 0x96369aa0u, 0xec5b53e5u, 0xfff9cb92u,
        0xcb1e630bu, 0xd8bcfb7cu, 0x7f8be302u, 0x6c297b75u, 0x58ced3ecu, 0x4b6c4b9bu,
        0x310182deu, 0x22a31aa9u, 0x1644b230u, 0x05e62a47u, 0xe29f20bau, 0xf13db8cdu,
        0xc5da1054u, 0xd6788823u, 0xac154166u, 0xbfb7d911u, 0x8b507188u, 0x98f2e9ffu,
        0x404e1283u, 0x53ec8af4u, 0x670b226du, 0x74a9ba1au, 0x0ec4735fu, 0x1d66eb28u,
        0x298143b1u, 0x3a23dbc6u, 0xdd5ad13bu, 0xcef8494cu, 0xfa1fe1d5u, 0xe9bd79a2u,
        0x93d0b0e7u, 0x80722890u, 0xb4958009u, 0xa737187eu, 0xff17c604u, 0xecb55e73u,
        0xd852f6eau, 0xcbf06e9du, 0xb19da7d8u, 0xa23f3fafu, 0x96d89736u, 0x857a0f41u,
        0x620305bcu, 0x71a19dcbu, 0x45463552u, 0x56e4ad25u, 0x2c896460u, 0x3f2bfc17u,
        0x0bcc548eu, 0x186eccf9u, 0xc0d23785u, 0xd370aff2u, 0xe797076bu, 0xf4359f1cu,
        0x8e585659u, 0x9dface2eu, 0xa91d66b7u, 0xbabffec0u, 0x5dc6f43du, 0x4e646c4au,
        0x7a83c4d3u, 0x69215ca4u, 0x134c95e1u, 0x00ee0d96u, 0x3409a50fu, 0x27ab3d78u,
        0x809c2506u, 0x933ebd71u, 0xa7d915e8u, 0xb47b8d9fu, 0xce1644dau, 0xddb4dcadu,
        0xe9537434u, 0xfaf1ec43u, 0x1d88e6beu, 0x0e2a7ec9u, 0x3acdd650u, 0x296f4e27u,
        0x53028762u, 0x40a01f15u, 0x7447b78cu, 0x67e52ffbu, 0xbf59d487u, 0xacfb4cf0u,
        0x981ce469u, 0x8bbe7c1eu, 0xf1d3b55bu, 0xe2712d2cu, 0xd69685b5u, 0xc5341dc2u,
        0x224d173fu, 0x31ef8f48u, 0x050827d1u, 0x16aabfa6u, 0x6cc776e3u, 0x7f65ee94u,
        0x4b82460du, 0x5820de7au, 0xfbc3faf9u, 0xe861628eu, 0xdc86ca17u, 0xcf245260u,
        0xb5499b25u, 0xa6eb0352u, 0x920cabcbu, 0x81ae33bcu, 0x66d73941u, 0x7575a136u,
        0x419209afu, 0x523091d8u, 0x285d589du, 0x3bffc0eau, 0x0f186873u, 0x1cbaf004u,
        0xc4060b78u, 0xd7a4930fu, 0xe3433b96u, 0xf0e1a3e1u, 0x8a8c6aa4u, 0x992ef2d3u,
        0xadc95a4au, 0xbe6bc23du, 0x5912c8c0u, 0x4ab050b7u, 0x7e57f82eu, 0x6df56059u,
        0x1798a91cu, 0x043a316bu, 0x30dd99f2u, 0x237f0185u, 0x844819fbu, 0x97ea818cu,
        0xa30d2915u, 0xb0afb162u, 0xcac27827u, 0xd960e050u, 0xed8748c9u, 0xfe25d0beu,
        0x195cda43u, 0x0afe4234u, 0x3e19eaadu, 0x2dbb72dau, 0x57d6bb9fu, 0x447423e8u,
        0x70938b71u, 0x63311306u, 0xbb8de87au, 0xa82f700du, 0x9cc8d894u, 0x8f6a40e3u,
        0xf50789a6u, 0xe6a511d1u, 0xd242b948u, 0xc1e0213fu, 0x26992bc2u, 0x353bb3b5u,
        0x01dc1b2cu, 0x127e835bu, 0x68134a1eu, 0x7bb1d269u, 0x4f567af0u, 0x5cf4e287u,
        0x04d43cfdu, 0x1776a48au, 0x23910c13u, 0x30339464u, 0x4a5e5d21u, 0x59fcc556u,
        0x6d1b6dcfu, 0x7eb9f5b8u, 0x99c0ff45u, 0x8a626732u, 0xbe85cfabu, 0xad2757dcu,
        0xd74a9e99u, 0xc4e806eeu, 0xf00fae77u, 0xe3ad3600u, 0x3b11cd7cu, 0x28b3550bu,
        0x1c54fd92u, 0x0ff665e5u, 0x759baca0u, 0x663934d7u, 0x52de9c4eu, 0x417c0439u,
        0xa6050ec4u, 0xb5a796b3u, 0x81403e2au, 0x92e2a65du, 0xe88f6f18u, 0xfb2df76fu,
        0xcfca5ff6u, 0xdc68c781u, 0x7b5fdfffu, 0x68fd4788u, 0x5c1aef11u, 0x4fb87766u,
        0x35d5be23u, 0x26772654u, 0x12908ecdu, 0x013216bau, 0xe64b1c47u, 0xf5e98430u,
        0xc10e2ca9u, 0xd2acb4deu, 0xa8c17d9bu, 0xbb63e5ecu, 0x8f844d75u, 0x9c26d502u,
        0x449a2e7eu, 0x5738b609u, 0x63df1e90u, 0x707d86e7u, 0x0a104fa2u, 0x19b2d7d5u,
        0x2d557f4cu, 0x3ef7e73bu, 0xd98eedc6u, 0xca2c75b1u, 0xfecbdd28u, 0xed69455fu,
        0x97048c1au, 0x84a6146du, 0xb041bcf4u, 0xa3e32483u,
    },
    {
        0x00000000u, 0xa541927eu, 0x4f6f520du, 0xea2ec073u, 0x9edea41au, 0x3b9f3664u,
        0xd1b1f617u, 0x74f06469u, 0x38513ec5u, 0x9d10acbbu, 0x773e6cc8u, 0xd27ffeb6u,
        0xa68f9adfu, 0x03ce08a1u, 0xe9e0c8d2u, 0x4ca15aacu, 0x70a27d8au, 0xd5e3eff4u,
        0x3fcd2f87u, 0x9a8cbdf9u, 0xee7cd990u, 0x4b3d4beeu, 0xa1138b9du, 0x045219e3u,
        0x48f3434fu, 0xedb2d131u, 0x079c1142u, 0xa2dd833cu, 0xd62de755u, 0x736c752bu,
        0x9942b558u, 0x3c032726u, 0xe144fb14u, 0x4405696au, 0xae2ba919u, 0x0b6a3b67u,
        0x7f9a5f0eu, 0xdadbcd70u, 0x30f50d03u, 0x95b49f7du, 0xd915c5d1u, 0x7c5457afu,
        0x967a97dcu, 0x333b05a2u, 0x47cb61cbu, 0xe28af3b5u, 0x08a433c6u, 0xade5a1b8u,
        0x91e6869eu, 0x34a714e0u, 0xde89d493u, 0x7bc846edu, 0x0f382284u, 0xaa79b0fau,
        0x40577089u, 0xe516e2f7u, 0xa9b7b85bu, 0x0cf62a25u, 0xe6d8ea56u, 0x43997828u,
        0x37691c41u, 0x92288e3fu, 0x78064e4cu, 0xdd47dc32u, 0xc76580d9u, 0x622412a7u,
        0x880ad2d4u, 0x2d4b40aau, 0x59bb24c3u, 0xfcfab6bdu, 0x16d476ceu, 0xb395e4b0u,
        0xff34be1cu, 0x5a752c62u, 0xb05bec11u, 0x151a7e6fu, 0x61ea1a06u, 0xc4ab8878u,
        0x2e85480bu, 0x8bc4da75u, 0xb7c7fd53u, 0x12866f2du, 0xf8a8af5eu, 0x5de93d20u,
        0x29195949u, 0x8c58cb37u, 0x66760b44u, 0xc337993au, 0x8f96c396u, 0x2ad751e8u,
        0xc0f9919bu, 0x65b803e5u, 0x1148678cu, 0xb409f5f2u, 0x5e273581u, 0xfb66a7ffu,
        0x26217bcdu, 0x8360e9b3u, 0x694e29c0u, 0xcc0fbbbeu, 0xb8ffdfd7u, 0x1dbe4da9u,
        0xf7908ddau, 0x52d11fa4u, 0x1e704508u, 0xbb31d776u, 0x511f1705u, 0xf45e857bu,
        0x80aee112u, 0x25ef736cu, 0xcfc1b31fu, 0x6a802161u, 0x56830647u, 0xf3c29439u,
        0x19ec544au, 0xbcadc634u, 0xc85da25du, 0x6d1c3023u, 0x8732f050u, 0x2273622eu,
        0x6ed23882u, 0xcb93aafcu, 0x21bd6a8fu, 0x84fcf8f1u, 0xf00c9c98u, 0x554d0ee6u,
        0xbf63ce95u, 0x1a225cebu, 0x8b277743u, 0x2e66e53du, 0xc448254eu, 0x6109b730u,
        0x15f9d359u, 0xb0b84127u, 0x5a968154u, 0xffd7132au, 0xb3764986u, 0x1637dbf8u,
        0xfc191b8bu, 0x595889f5u, 0x2da8ed9cu, 0x88e97fe2u, 0x62c7bf91u, 0xc7862defu,
        0xfb850ac9u, 0x5ec498b7u, 0xb4ea58c4u, 0x11abcabau, 0x655baed3u, 0xc01a3cadu,
        0x2a34fcdeu, 0x8f756ea0u, 0xc3d4340cu, 0x6695a672u, 0x8cbb6601u, 0x29faf47fu,
        0x5d0a9016u, 0xf84b0268u, 0x1265c21bu, 0xb7245065u, 0x6a638c57u, 0xcf221e29u,
        0x250cde5au, 0x804d4c24u, 0xf4bd284du, 0x51fcba33u, 0xbbd27a40u, 0x1e93e83eu,
        0x5232b292u, 0xf77320ecu, 0x1d5de09fu, 0xb81c72e1u, 0xccec1688u, 0x69ad84f6u,
        0x83834485u, 0x26c2d6fbu, 0x1ac1f1ddu, 0xbf8063a3u, 0x55aea3d0u, 0xf0ef31aeu,
        0x841f55c7u, 0x215ec7b9u, 0xcb7007cau, 0x6e3195b4u, 0x2290cf18u, 0x87d15d66u,
        0x6dff9d15u, 0xc8be0f6bu, 0xbc4e6b02u, 0x190ff97cu, 0xf321390fu, 0x5660ab71u,
        0x4c42f79au, 0xe90365e4u, 0x032da597u, 0xa66c37e9u, 0xd29c5380u, 0x77ddc1feu,
        0x9df3018du, 0x38b293f3u, 0x7413c95fu, 0xd1525b21u, 0x3b7c9b52u, 0x9e3d092cu,
        0xeacd6d45u, 0x4f8cff3bu, 0xa5a23f48u, 0x00e3ad36u, 0x3ce08a10u, 0x99a1186eu,
        0x738fd81du, 0xd6ce4a63u, 0xa23e2e0au, 0x077fbc74u, 0xed517c07u, 0x4810ee79u,
        0x04b1b4d5u, 0xa1f026abu, 0x4bdee6d8u, 0xee9f74a6u, 0x9a6f10cfu, 0x3f2e82b1u,
        0xd50042c2u, 0x7041d0bcu, 0xad060c8eu, 0x08479ef0u, 0xe2695e83u, 0x4728ccfdu,
        0x33d8a894u, 0x96993aeau, 0x7cb7fa99u, 0xd9f668e7u, 0x9557324bu, 0x3016a035u,
        0xda386046u, 0x7f79f238u, 0x0b899651u, 0xaec8042fu, 0x44e6c45cu, 0xe1a75622u,
        0xdda47104u, 0x78e5e37au, 0x92cb2309u, 0x378ab177u, 0x437ad51eu, 0xe63b4760u,
        0x0c158713u, 0xa954156du, 0xe5f54fc1u, 0x40b4ddbfu, 0xaa9a1dccu, 0x0fdb8fb2u,
        0x7b2bebdbu, 0xde6a79a5u, 0x3444b9d6u, 0x91052ba8u,
    },
    {
        0x00000000u, 0xdd45aab8u, 0xbf672381u, 0x62228939u, 0x7b2231f3u, 0xa6679b4bu,
        0xc4451272u, 0x1900b8cau, 0xf64463e6u, 0x2b01c95eu, 0x49234067u, 0x9466eadfu,
        0x8d665215u, 0x5023f8adu, 0x32017194u, 0xef44db2cu, 0xe964b13du, 0x34211b85u,
        0x560392bcu, 0x8b463804u, 0x924680ceu, 0x4f032a76u, 0x2d21a34fu, 0xf06409f7u,
        0x1f20d2dbu, 0xc2657863u, 0xa047f15au, 0x7d025be2u, 0x6402e328u, 0xb9474990u,
        0xdb65c0a9u, 0x06206a11u, 0xd725148bu, 0x0a60be33u, 0x6842370au, 0xb5079db2u,
        0xac072578u, 0x71428fc0u, 0x136006f9u, 0xce25ac41u, 0x2161776du, 0xfc24ddd5u,
        0x9e0654ecu, 0x4343fe54u, 0x5a43469eu, 0x8706ec26u, 0xe524651fu, 0x3861cfa7u,
        0x3e41a5b6u, 0xe3040f0eu, 0x81268637u, 0x5c632c8fu, 0x45639445u, 0x98263efdu,
        0xfa04b7c4u, 0x27411d7cu, 0xc805c650u, 0x15406ce8u, 0x7762e5d1u, 0xaa274f69u,
        0xb327f7a3u, 0x6e625d1bu, 0x0c40d422u, 0xd1057e9au, 0xaba65fe7u, 0x76e3f55fu,
        0x14c17c66u, 0xc984d6deu, 0xd0846e14u, 0x0dc1c4acu, 0x6fe34d95u, 0xb2a6e72du,
        0x5de23c01u, 0x80a796b9u, 0xe2851f80u, 0x3fc0b538u, 0x26c00df2u, 0xfb85a74au,
        0x99a72e73u, 0x44e284cbu, 0x42c2eedau, 0x9f874462u, 0xfda5cd5bu, 0x20e067e3u,
        0x39e0df29u, 0xe4a57591u, 0x8687fca8u, 0x5bc25610u, 0xb4868d3cu, 0x69c32784u,
        0x0be1aebdu, 0xd6a40405u, 0xcfa4bccfu, 0x12e11677u, 0x70c39f4eu, 0xad8635f6u,
        0x7c834b6cu, 0xa1c6e1d4u, 0xc3e468edu, 0x1ea1c255u, 0x07a17a9fu, 0xdae4d027u,
        0xb8c6591eu, 0x6583f3a6u, 0x8ac7288au, 0x57828232u, 0x35a00b0bu, 0xe8e5a1b3u,
        0xf1e51979u, 0x2ca0b3c1u, 0x4e823af8u, 0x93c79040u, 0x95e7fa51u, 0x48a250e9u,
        0x2a80d9d0u, 0xf7c57368u, 0xeec5cba2u, 0x3380611au, 0x51a2e823u, 0x8ce7429bu,
        0x63a399b7u, 0xbee6330fu, 0xdcc4ba36u, 0x0181108eu, 0x1881a844u, 0xc5c402fcu,
        0xa7e68bc5u, 0x7aa3217du, 0x52a0c93fu, 0x8fe56387u, 0xedc7eabeu, 0x30824006u,
        0x2982f8ccu, 0xf4c75274u, 0x96e5db4du, 0x4ba071f5u, 0xa4e4aad9u, 0x79a10061u,
        0x1b838958u, 0xc6c623e0u, 0xdfc69b2au, 0x02833192u, 0x60a1b8abu, 0xbde41213u,
        0xbbc47802u, 0x6681d2bau, 0x04a35b83u, 0xd9e6f13bu, 0xc0e649f1u, 0x1da3e349u,
        0x7f816a70u, 0xa2c4c0c8u, 0x4d801be4u, 0x90c5b15cu, 0xf2e73865u, 0x2fa292ddu,
        0x36a22a17u, 0xebe780afu, 0x89c50996u, 0x5480a32eu, 0x8585ddb4u, 0x58c0770cu,
        0x3ae2fe35u, 0xe7a7548du, 0xfea7ec47u, 0x23e246ffu, 0x41c0cfc6u, 0x9c85657eu,
        0x73c1be52u, 0xae8414eau, 0xcca69dd3u, 0x11e3376bu, 0x08e38fa1u, 0xd5a62519u,
        0xb784ac20u, 0x6ac10698u, 0x6ce16c89u, 0xb1a4c631u, 0xd3864f08u, 0x0ec3e5b0u,
        0x17c35d7au, 0xca86f7c2u, 0xa8a47efbu, 0x75e1d443u, 0x9aa50f6fu, 0x47e0a5d7u,
        0x25c22ceeu, 0xf8878656u, 0xe1873e9cu, 0x3cc29424u, 0x5ee01d1du, 0x83a5b7a5u,
        0xf90696d8u, 0x24433c60u, 0x4661b559u, 0x9b241fe1u, 0x8224a72bu, 0x5f610d93u,
        0x3d4384aau, 0xe0062e12u, 0x0f42f53eu, 0xd2075f86u, 0xb025d6bfu, 0x6d607c07u,
        0x7460c4cdu, 0xa9256e75u, 0xcb07e74cu, 0x16424df4u, 0x106227e5u, 0xcd278d5du,
        0xaf050464u, 0x7240aedcu, 0x6b401616u, 0xb605bcaeu, 0xd4273597u, 0x09629f2fu,
        0xe6264403u, 0x3b63eebbu, 0x59416782u, 0x8404cd3au, 0x9d0475f0u, 0x4041df48u,
        0x22635671u, 0xff26fcc9u, 0x2e238253u, 0xf36628ebu, 0x9144a1d2u, 0x4c010b6au,
        0x5501b3a0u, 0x88441918u, 0xea669021u, 0x37233a99u, 0xd867e1b5u, 0x05224b0du,
        0x6700c234u, 0xba45688cu, 0xa345d046u, 0x7e007afeu, 0x1c22f3c7u, 0xc167597fu,
        0xc747336eu, 0x1a0299d6u, 0x782010efu, 0xa565ba57u, 0xbc65029du, 0x6120a825u,
        0x0302211cu, 0xde478ba4u, 0x31035088u, 0xec46fa30u, 0x8e647309u, 0x5321d9b1u,
        0x4a21617bu, 0x9764cbc3u, 0xf54642fau, 0x2803e842u,
    },
};

uint32_t rulec_crc32c(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = (const uint8_t *)data;
    if (p == NULL)
        return crc;
    crc = ~crc;
    while (len >= 4) {
        crc ^= (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
               ((uint32_t)p[3] << 24);
        crc = crc_table[3][crc & 0xFF] ^ crc_table[2][(crc >> 8) & 0xFF] ^
              crc_table[1][(crc >> 16) & 0xFF] ^ crc_table[0][crc >> 24];
        p += 4;
        len -= 4;
    }
    while (len--)
        crc = crc_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

#endif /* RULEC_PROTO_CRC_BITWISE */

/* --- COBS ------------------------------------------------------------------------------ */

/* Streaming canonical COBS writer: frames are encoded straight from header, payload and
 * CRC into the caller's buffer, without an intermediate copy of the raw frame. */
typedef struct {
    uint8_t *out;
    size_t cap;
    size_t pos;      /* next data position */
    size_t code_pos; /* where the open block's code byte goes */
    uint8_t code;    /* 1 + data bytes in the open block */
    uint8_t after_ff; /* the open block was opened by a full (255) block */
    uint8_t overflow;
} cobs_writer;

static void cw_store(cobs_writer *w, size_t at, uint8_t v)
{
    if (at < w->cap)
        w->out[at] = v;
    else
        w->overflow = 1;
}

static void cw_init(cobs_writer *w, uint8_t *out, size_t cap)
{
    w->out = out;
    w->cap = cap;
    w->code_pos = 0;
    w->pos = 1;
    w->code = 1;
    w->after_ff = 0;
    w->overflow = 0;
}

static void cw_put(cobs_writer *w, const uint8_t *src, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        uint8_t b = src[i];
        if (b == 0) {
            cw_store(w, w->code_pos, w->code);
            w->code_pos = w->pos++;
            w->code = 1;
            w->after_ff = 0;
            continue;
        }
        cw_store(w, w->pos++, b);
        if (++w->code == 0xFF) {
            cw_store(w, w->code_pos, 0xFF);
            w->code_pos = w->pos++;
            w->code = 1;
            w->after_ff = 1;
        }
    }
}

/* Close the last block; returns the encoded length or RULEC_E_SPACE.  Canonical form:
 * no empty final block after a 255 block. */
static int32_t cw_finish(cobs_writer *w)
{
    if (w->code == 1 && w->after_ff)
        w->pos = w->code_pos;
    else
        cw_store(w, w->code_pos, w->code);
    if (w->overflow || w->pos > w->cap)
        return RULEC_E_SPACE;
    return (int32_t)w->pos;
}

int32_t rulec_cobs_encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    cobs_writer w;
    if ((src == NULL && len > 0) || dst == NULL || len > 0x7FFF0000u)
        return RULEC_E_ARG;
    cw_init(&w, dst, cap);
    cw_put(&w, src, len);
    return cw_finish(&w);
}

int32_t rulec_cobs_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    size_t i = 0, o = 0;
    uint8_t prev = 0;
    if (src == NULL || dst == NULL || len > 0x7FFF0000u)
        return RULEC_E_ARG;
    if (len == 0)
        return RULEC_E_COBS;
    for (;;) {
        uint8_t code = src[i];
        size_t next = i + code, n = (size_t)code - 1;
        if (code == 0 || next > len || (n > 0 && memchr(src + i + 1, 0, n) != NULL))
            return RULEC_E_COBS;
        if (n > cap - o)
            return RULEC_E_SPACE;
        memmove(dst + o, src + i + 1, n); /* o <= i: in place is safe */
        o += n;
        if (next == len) {
            if (code == 1 && prev == 0xFF)
                return RULEC_E_COBS; /* non-canonical empty final block */
            return (int32_t)o;
        }
        if (code != 0xFF) {
            if (o >= cap)
                return RULEC_E_SPACE;
            dst[o++] = 0; /* o < next: the next code byte is not overwritten */
        }
        prev = code;
        i = next;
    }
}

/* --- frames ---------------------------------------------------------------------------- */

static int known_type(uint8_t t)
{
    return t >= RULEC_MSG_TELEMETRY && t <= RULEC_MSG_SENSOR_FAULT;
}

int32_t rulec_frame_encode(uint8_t msg_type, uint32_t seq, uint64_t timestamp_us,
                           const uint8_t *payload, size_t payload_len, uint8_t *out,
                           size_t cap)
{
    uint8_t head[RULEC_HEADER_SIZE], tail[RULEC_CRC_SIZE];
    uint32_t crc;
    int32_t n;
    cobs_writer w;
    if (out == NULL || (payload == NULL && payload_len > 0) || !known_type(msg_type))
        return RULEC_E_ARG;
    if (payload_len > RULEC_MAX_PAYLOAD)
        return RULEC_E_OVERSIZE;
    head[0] = RULEC_PROTO_VERSION;
    head[1] = msg_type;
    put_u32(head + 2, seq);
    put_u64(head + 6, timestamp_us);
    put_u16(head + 14, (uint16_t)payload_len);
    crc = rulec_crc32c(0, head, sizeof head);
    crc = rulec_crc32c(crc, payload, payload_len);
    put_u32(tail, crc);
    cw_init(&w, out, cap);
    cw_put(&w, head, sizeof head);
    cw_put(&w, payload, payload_len);
    cw_put(&w, tail, sizeof tail);
    n = cw_finish(&w);
    if (n < 0)
        return n;
    if ((size_t)n >= cap)
        return RULEC_E_SPACE;
    out[n] = 0; /* delimiter */
    return n + 1;
}

int32_t rulec_frame_decode(uint8_t *run, size_t len, size_t max_frame, rulec_frame *out)
{
    int32_t r;
    size_t n;
    uint16_t payload_len;
    if (run == NULL || out == NULL || max_frame < RULEC_MIN_FRAME ||
        max_frame > RULEC_MAX_FRAME)
        return RULEC_E_ARG;
    r = rulec_cobs_decode(run, len, run, len);
    if (r < 0)
        return r == RULEC_E_ARG ? r : RULEC_E_COBS;
    n = (size_t)r;
    if (n > max_frame)
        return RULEC_E_OVERSIZE;
    if (n < RULEC_MIN_FRAME)
        return RULEC_E_LENGTH;
    if (rulec_crc32c(0, run, n - RULEC_CRC_SIZE) != get_u32(run + n - RULEC_CRC_SIZE))
        return RULEC_E_CRC;
    if (run[0] != RULEC_PROTO_VERSION)
        return RULEC_E_VERSION;
    payload_len = get_u16(run + 14);
    if ((size_t)payload_len != n - RULEC_MIN_FRAME)
        return RULEC_E_LENGTH;
    if (!known_type(run[1]))
        return RULEC_E_TYPE;
    out->msg_type = run[1];
    out->seq = get_u32(run + 2);
    out->timestamp_us = get_u64(run + 6);
    out->payload = run + RULEC_HEADER_SIZE;
    out->payload_len = payload_len;
    return RULEC_OK;
}

/* --- streaming decoder ------------------------------------------------------------------ */

int32_t rulec_decoder_init(rulec_decoder *d, size_t max_frame)
{
    if (d == NULL)
        return RULEC_E_ARG;
    if (max_frame == 0)
        max_frame = RULEC_MAX_FRAME;
    if (max_frame < RULEC_MIN_FRAME || max_frame > RULEC_MAX_FRAME)
        return RULEC_E_ARG;
    memset(d, 0, sizeof *d);
    d->max_frame = (uint16_t)max_frame;
    d->max_encoded = (uint16_t)RULEC_COBS_MAX(max_frame);
    return RULEC_OK;
}

void rulec_decoder_reset(rulec_decoder *d)
{
    if (d == NULL)
        return;
    d->stats.bytes_discarded += d->len;
    d->len = 0;
    d->skipping = 0;
}

/* The run in buf is complete: one frame, or one counted error. */
static int32_t finish_run(rulec_decoder *d, rulec_frame *out)
{
    size_t n = d->len;
    int32_t r;
    d->len = 0;
    r = rulec_frame_decode(d->buf, n, d->max_frame, out);
    switch (r) {
    case RULEC_OK:
        d->stats.frames++;
        return 1;
    case RULEC_E_OVERSIZE:
        d->stats.oversize++;
        break;
    case RULEC_E_LENGTH:
        d->stats.length_errors++;
        break;
    case RULEC_E_CRC:
        d->stats.crc_errors++;
        break;
    case RULEC_E_VERSION:
        d->stats.version_errors++;
        break;
    case RULEC_E_TYPE:
        d->stats.type_errors++;
        break;
    default: /* RULEC_E_COBS */
        d->stats.cobs_errors++;
        break;
    }
    d->stats.bytes_discarded += (uint32_t)n;
    return 0;
}

int32_t rulec_decoder_push(rulec_decoder *d, uint8_t byte, rulec_frame *out)
{
    if (d == NULL || out == NULL)
        return RULEC_E_ARG;
    if (byte == 0) {
        if (d->skipping) {
            d->skipping = 0;
            return 0;
        }
        return d->len ? finish_run(d, out) : 0; /* an empty run is idle fill */
    }
    if (d->skipping) {
        d->stats.bytes_discarded++;
        return 0;
    }
    if (d->len >= d->max_encoded) {
        d->stats.oversize++;
        d->stats.bytes_discarded += (uint32_t)d->len + 1u;
        d->len = 0;
        d->skipping = 1;
        return 0;
    }
    d->buf[d->len++] = byte;
    return 0;
}

int32_t rulec_decoder_feed(rulec_decoder *d, const uint8_t *data, size_t len,
                           size_t *consumed, rulec_frame *out)
{
    size_t i = 0;
    if (d == NULL || out == NULL || consumed == NULL || (data == NULL && len > 0))
        return RULEC_E_ARG;
    while (i < len) {
        const uint8_t *z = (const uint8_t *)memchr(data + i, 0, len - i);
        size_t end = z ? (size_t)(z - data) : len; /* the run continues up to end */
        size_t chunk = end - i;
        if (d->skipping) {
            d->stats.bytes_discarded += (uint32_t)chunk;
        } else if (chunk > (size_t)(d->max_encoded - d->len)) {
            d->stats.oversize++;
            d->stats.bytes_discarded += (uint32_t)(d->len + chunk);
            d->len = 0;
            d->skipping = 1;
        } else {
            memcpy(d->buf + d->len, data + i, chunk);
            d->len = (uint16_t)(d->len + chunk);
        }
        i = end;
        if (z == NULL)
            break;
        i++; /* the delimiter */
        if (d->skipping) {
            d->skipping = 0;
        } else if (d->len && finish_run(d, out)) {
            *consumed = i;
            return 1;
        }
    }
    *consumed = i;
    return 0;
}

/* --- payloads ------------------------------------------------------------------------------ */

int rulec_utf8_valid(const uint8_t *s, size_t len)
{
    size_t i = 0;
    if (s == NULL)
        return len == 0;
    while (i < len) {
        uint8_t c = s[i];
        size_t need, k;
        uint8_t lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0)
                lo = 0xA0; /* no overlong forms */
            else if (c == 0xED)
                hi = 0x9F; /* no surrogates */
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F; /* nothing above U+10FFFF */
        } else {
            return 0;
        }
        if (len - i <= need)
            return 0;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return 0;
        for (k = 2; k <= need; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return 0;
        i += need + 1;
    }
    return 1;
}

static int ascending(const rulec_value *values, size_t count)
{
    size_t i;
    for (i = 1; i < count; i++)
        if (values[i].channel <= values[i - 1].channel)
            return 0;
    return 1;
}

/* count u16 + pairs at p; the caller has checked the space. */
static size_t put_values(uint8_t *p, const rulec_value *values, size_t count)
{
    size_t i;
    put_u16(p, (uint16_t)count);
    p += 2;
    for (i = 0; i < count; i++, p += 10) {
        put_u16(p, values[i].channel);
        put_f64(p + 2, values[i].value);
    }
    return 2 + 10 * count;
}

/* The values part from offset off to the end of the payload. */
static int32_t get_values(const uint8_t *payload, size_t len, size_t off, rulec_value *values,
                          size_t cap, size_t *count)
{
    size_t n, i;
    const uint8_t *p;
    if (len < off + 2)
        return RULEC_E_PAYLOAD;
    n = get_u16(payload + off);
    if (n > RULEC_MAX_CHANNELS || len != off + 2 + 10 * n)
        return RULEC_E_PAYLOAD;
    p = payload + off + 2;
    for (i = 1; i < n; i++)
        if (get_u16(p + 10 * i) <= get_u16(p + 10 * (i - 1)))
            return RULEC_E_PAYLOAD;
    if (n > cap)
        return RULEC_E_SPACE;
    for (i = 0; i < n; i++, p += 10) {
        values[i].channel = get_u16(p);
        values[i].value = get_f64(p + 2);
    }
    *count = n;
    return RULEC_OK;
}

int32_t rulec_telemetry_encode(const rulec_value *values, size_t count, uint8_t *out,
                               size_t cap)
{
    if (out == NULL || (values == NULL && count > 0))
        return RULEC_E_ARG;
    if (count > RULEC_MAX_CHANNELS || !ascending(values, count))
        return RULEC_E_ARG;
    if (2 + 10 * count > cap)
        return RULEC_E_SPACE;
    return (int32_t)put_values(out, values, count);
}

int32_t rulec_telemetry_decode(const uint8_t *payload, size_t len, rulec_value *values,
                               size_t cap, size_t *count)
{
    if ((payload == NULL && len > 0) || count == NULL || (values == NULL && cap > 0))
        return RULEC_E_ARG;
    if (len > RULEC_MAX_PAYLOAD)
        return RULEC_E_PAYLOAD;
    return get_values(payload, len, 0, values, cap, count);
}

int32_t rulec_advisory_encode(const rulec_advisory *adv, uint8_t *out, size_t cap)
{
    size_t size;
    if (adv == NULL || out == NULL || adv->rule_id == NULL ||
        (adv->values == NULL && adv->count > 0))
        return RULEC_E_ARG;
    if (adv->event < RULEC_EVENT_RAISE || adv->event > RULEC_EVENT_CLEAR ||
        adv->severity < RULEC_SEVERITY_WARNING || adv->severity > RULEC_SEVERITY_ADVISORY ||
        adv->rule_id_len == 0 || adv->count > RULEC_MAX_CHANNELS ||
        !rulec_utf8_valid((const uint8_t *)adv->rule_id, adv->rule_id_len) ||
        !ascending(adv->values, adv->count))
        return RULEC_E_ARG;
    if (adv->rule_id_len > RULEC_MAX_PAYLOAD)
        return RULEC_E_OVERSIZE;
    size = 4 + adv->rule_id_len + 2 + 10 * adv->count;
    if (size > RULEC_MAX_PAYLOAD)
        return RULEC_E_OVERSIZE;
    if (size > cap)
        return RULEC_E_SPACE;
    out[0] = adv->event;
    out[1] = adv->severity;
    put_u16(out + 2, (uint16_t)adv->rule_id_len);
    memcpy(out + 4, adv->rule_id, adv->rule_id_len);
    put_values(out + 4 + adv->rule_id_len, adv->values, adv->count);
    return (int32_t)size;
}

int32_t rulec_advisory_decode(const uint8_t *payload, size_t len, rulec_advisory *adv,
                              rulec_value *values, size_t cap)
{
    size_t id_len;
    int32_t r;
    if ((payload == NULL && len > 0) || adv == NULL || (values == NULL && cap > 0))
        return RULEC_E_ARG;
    if (len > RULEC_MAX_PAYLOAD || len < 4)
        return RULEC_E_PAYLOAD;
    if (payload[0] < RULEC_EVENT_RAISE || payload[0] > RULEC_EVENT_CLEAR ||
        payload[1] < RULEC_SEVERITY_WARNING || payload[1] > RULEC_SEVERITY_ADVISORY)
        return RULEC_E_PAYLOAD;
    id_len = get_u16(payload + 2);
    if (id_len == 0 || 4 + id_len > len || !rulec_utf8_valid(payload + 4, id_len))
        return RULEC_E_PAYLOAD;
    r = get_values(payload, len, 4 + id_len, values, cap, &adv->count);
    if (r < 0)
        return r;
    adv->event = payload[0];
    adv->severity = payload[1];
    adv->rule_id = (const char *)(payload + 4);
    adv->rule_id_len = id_len;
    adv->values = values;
    return RULEC_OK;
}

int32_t rulec_heartbeat_encode(const rulec_heartbeat *hb, uint8_t *out, size_t cap)
{
    if (hb == NULL || out == NULL)
        return RULEC_E_ARG;
    if (cap < 32)
        return RULEC_E_SPACE;
    put_u64(out, hb->uptime_ms);
    put_u64(out + 8, hb->frames_ok);
    put_u64(out + 16, hb->frames_dropped);
    put_u64(out + 24, hb->advisories);
    return 32;
}

int32_t rulec_heartbeat_decode(const uint8_t *payload, size_t len, rulec_heartbeat *hb)
{
    if ((payload == NULL && len > 0) || hb == NULL)
        return RULEC_E_ARG;
    if (len != 32)
        return RULEC_E_PAYLOAD;
    hb->uptime_ms = get_u64(payload);
    hb->frames_ok = get_u64(payload + 8);
    hb->frames_dropped = get_u64(payload + 16);
    hb->advisories = get_u64(payload + 24);
    return RULEC_OK;
}

int32_t rulec_bundle_info_encode(const rulec_bundle_info *info, uint8_t *out, size_t cap)
{
    size_t size;
    if (info == NULL || out == NULL || info->bundle_id == NULL || info->bundle_id_len == 0 ||
        !rulec_utf8_valid((const uint8_t *)info->bundle_id, info->bundle_id_len))
        return RULEC_E_ARG;
    if (info->bundle_id_len > RULEC_MAX_PAYLOAD - 36)
        return RULEC_E_OVERSIZE;
    size = 36 + info->bundle_id_len;
    if (size > cap)
        return RULEC_E_SPACE;
    put_u16(out, info->format_version);
    memcpy(out + 2, info->digest, 32);
    put_u16(out + 34, (uint16_t)info->bundle_id_len);
    memcpy(out + 36, info->bundle_id, info->bundle_id_len);
    return (int32_t)size;
}

int32_t rulec_bundle_info_decode(const uint8_t *payload, size_t len, rulec_bundle_info *info)
{
    size_t id_len;
    if ((payload == NULL && len > 0) || info == NULL)
        return RULEC_E_ARG;
    if (len > RULEC_MAX_PAYLOAD || len < 36)
        return RULEC_E_PAYLOAD;
    id_len = get_u16(payload + 34);
    if (len != 36 + id_len || id_len == 0 || !rulec_utf8_valid(payload + 36, id_len))
        return RULEC_E_PAYLOAD;
    info->format_version = get_u16(payload);
    memcpy(info->digest, payload + 2, 32);
    info->bundle_id = (const char *)(payload + 36);
    info->bundle_id_len = id_len;
    return RULEC_OK;
}

int32_t rulec_sensor_fault_encode(const rulec_sensor_fault *fault, uint8_t *out, size_t cap)
{
    if (fault == NULL || out == NULL || fault->reason < RULEC_FAULT_NAN ||
        fault->reason > RULEC_FAULT_NOT_A_STATE)
        return RULEC_E_ARG;
    if (cap < 3)
        return RULEC_E_SPACE;
    put_u16(out, fault->channel);
    out[2] = fault->reason;
    return 3;
}

int32_t rulec_sensor_fault_decode(const uint8_t *payload, size_t len, rulec_sensor_fault *fault)
{
    if ((payload == NULL && len > 0) || fault == NULL)
        return RULEC_E_ARG;
    if (len != 3 || payload[2] < RULEC_FAULT_NAN || payload[2] > RULEC_FAULT_NOT_A_STATE)
        return RULEC_E_PAYLOAD;
    fault->channel = get_u16(payload);
    fault->reason = payload[2];
    return RULEC_OK;
}
